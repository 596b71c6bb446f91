/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: a warning for a property that is read only when the element
 * starts (GST_PARAM_MUTABLE_READY) but was changed while it runs. */
#ifndef __AOOCT_LATE_PROPERTY_H__
#define __AOOCT_LATE_PROPERTY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* For GObjectClass.dispatch_properties_changed: posts a
 * GST_ELEMENT_WARNING on @element for each of @pspecs that is
 * GST_PARAM_MUTABLE_READY when @element is above READY (or going there).
 * Chain up to the parent's dispatch_properties_changed after it. */
void aooct_warn_late_properties (GstElement * element, guint n_pspecs,
    GParamSpec ** pspecs);

G_END_DECLS

#endif /* __AOOCT_LATE_PROPERTY_H__ */
