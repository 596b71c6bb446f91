/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: a script of user actions, for tests and demonstrations. */
#ifndef VIEW_SCRIPT_H
#define VIEW_SCRIPT_H

#include "view-app.h"

G_BEGIN_DECLS

gboolean view_script_run (ViewApp * app, const gchar * path, GError ** error);

G_END_DECLS
#endif
