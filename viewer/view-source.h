/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: checks of the user's source settings before a start. */
#ifndef VIEW_SOURCE_H
#define VIEW_SOURCE_H

#include <glib.h>

G_BEGIN_DECLS

gboolean view_source_check (GKeyFile * settings, GError ** error);

G_END_DECLS
#endif
