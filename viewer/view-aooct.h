/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the AO-OCT tabs (spec section 13, docs/aooct.md): the
 * Registration tab plots aooctregister's shifts per B-scan, the ORG tab
 * shows aooctorg's kymograph above its trace (mean +- std per B-scan). */
#ifndef VIEW_AOOCT_H
#define VIEW_AOOCT_H

#include "view-app.h"

G_BEGIN_DECLS

/* Adds the tabs of the installed elements to app->views (the ORG tab holds
 * app->view_pages[VIEW_ORG], the kymograph's video). */
void view_aooct_add_pages (ViewApp * app);
/* An element message of the running pipeline (ViewMessageFunc). */
void view_aooct_message (const GstStructure * s, gpointer app);
/* A new pipeline: the plots start empty. */
void view_aooct_clear (ViewApp * app);
/* The tab ("registration", "org") and its plot, NULL when not shown. */
GtkWidget *view_aooct_page (ViewApp * app, const gchar * name);
GtkWidget *view_aooct_plot (ViewApp * app, const gchar * name);

G_END_DECLS
#endif
