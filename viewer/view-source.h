/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: checks of the user's source settings before a start. */
#ifndef VIEW_SOURCE_H
#define VIEW_SOURCE_H

#include <glib.h>

#include "aooct-raw-format.h"

G_BEGIN_DECLS

gboolean view_source_check (GKeyFile * settings, GError ** error);
/* @name is one of aooctfilesrc's raw formats (gray16-le, gray8, mono12p,
 * mono12packed, mono10p): TRUE with it in @format */
gboolean view_source_raw_format (const gchar * name, AooctRawFormat * format);

G_END_DECLS
#endif
