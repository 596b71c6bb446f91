/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what every file of GstAooctFilter shares, at the bottom of the
 * base class (aooct-filter-private.h): its debug category, its parent
 * class, and turning a GError into an element error. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-error.h"

GST_DEBUG_CATEGORY (gst_aooct_filter_debug);
#define GST_CAT_DEFAULT gst_aooct_filter_debug

/* the parent class (GstBaseTransform's), set by the class_init of
 * gstaooctfilter.c for the base class's other files */
gpointer aooct_filter_parent_class;

void
gst_aooct_filter_post_error (GstAooctFilter * self, const GError * error)
{
  const gchar *msg = error ? error->message : "unknown error";
  gint code = (error && error->domain == AOOCT_ERROR) ? error->code :
      AOOCT_ERROR_FAILED;

  /* Upstream retries a refused negotiation (reconfigure, new caps query)
   * and every retry fails the same way: one message on the bus per cause
   * is what the user needs. */
  GST_OBJECT_LOCK (self);
  /* counted even when not posted again: the cause is on the bus */
  self->priv->errors_posted++;
  if (g_strcmp0 (self->priv->last_error, msg) == 0) {
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "not posting again: %s", msg);
    return;
  }
  g_free (self->priv->last_error);
  self->priv->last_error = g_strdup (msg);
  GST_OBJECT_UNLOCK (self);

  GST_WARNING_OBJECT (self, "%s", msg);
  switch (code) {
    case AOOCT_ERROR_CAPS:
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_FILE:
      GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_SETTINGS:
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_DATA:
      GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_RESOURCE:
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("%s", msg), (NULL));
      break;
    default:
      GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("%s", msg), (NULL));
      break;
  }
}

void
aooct_filter_forget_last_error (GstAooctFilter * self)
{
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->priv->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
}
