/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the settings (a GKeyFile) and their gst-launch-1.0 line. */
#ifndef VIEW_SETTINGS_H
#define VIEW_SETTINGS_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Group of the source's own keys (kind, location, width, ...); every other
 * group is named after an element factory and holds its properties. */
#define VIEW_SOURCE "source"
/* Group of the en-face / volume views' switch (enabled=true|false). */
#define VIEW_VIEWS "views"
/* Group of the registration's switch (enabled=true|false): aooctregister
 * after aooctfft (issue 42, spec section 13). */
#define VIEW_REGISTRATION "registration"
/* The chain, in pipeline order, as a user writes it; the optional steps
 * (aooctregister) are in it where they go when switched on. */
extern const gchar *const view_chain_factories[];
/* Whether @factory of view_chain_factories is in the chain these settings
 * make: every step but aooctregister, which is there when installed and
 * [registration] enabled is true. */
gboolean view_settings_in_chain (GKeyFile * kf, const gchar * factory);
/* Whether the depth-domain stream ends after @factory (the views' tee goes
 * there): aooctregister when it is in the chain, else aooctfft. */
gboolean view_settings_depth_end (GKeyFile * kf, const gchar * factory);

typedef enum
{
  VIEW_SOURCE_SYNTHETIC,
  VIEW_SOURCE_FILE,
  VIEW_SOURCE_ARAVIS,
} ViewSourceKind;

GKeyFile *view_settings_new_default (void);
gboolean view_settings_load (GKeyFile * kf, const gchar * path,
    GError ** error);
gboolean view_settings_save (GKeyFile * kf, const gchar * path,
    GError ** error);
ViewSourceKind view_settings_source_kind (GKeyFile * kf);
gchar *view_settings_get (GKeyFile * kf, const gchar * group,
    const gchar * key);
void view_settings_set (GKeyFile * kf, const gchar * group,
    const gchar * key, const gchar * value);
void view_settings_apply (GKeyFile * kf, const gchar * group,
    GstElement * element);
/* Sets @key of @object from its text as gst-launch-1.0 writes it (a string
 * as it is); FALSE with @error for a value the property does not take. */
gboolean view_settings_set_arg (GObject * object, const gchar * key,
    const gchar * value, GError ** error);
gchar *view_settings_source_description (GKeyFile * kf);
/* The source as a bin of element objects with a "src" ghost pad, every
 * setting a property (file and camera names as they are). */
GstElement *view_settings_source_build (GKeyFile * kf, GError ** error);
/* An integer key of [source]: @fallback when unset, -1 when not wholly a
 * number. */
gint view_settings_get_int (GKeyFile * kf, const gchar * key, gint fallback);
/* An unsigned 64-bit key of [source] (header-bytes, frame-stride):
 * @fallback when unset or not wholly a number (aooctfilesrc then refuses
 * the value with its own message). */
guint64 view_settings_get_uint64 (GKeyFile * kf, const gchar * key,
    guint64 fallback);
gchar *view_settings_launch_line (GKeyFile * kf);
gchar *view_value_to_string (const GValue * value);

G_END_DECLS
#endif
