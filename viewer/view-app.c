/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: what the script reaches of the window (view-app.h). */
#include "view-app.h"

GtkWidget *
view_app_page (ViewApp * app, ViewKind kind)
{
  if (kind == VIEW_ORG)
    return app->org_page;
  return kind == VIEW_DOPPLER || kind == VIEW_ANGIO ? app->flow_page :
      app->view_pages[kind];
}

GtkWidget *
view_app_control (ViewApp * app, const gchar * group, const gchar * key)
{
  gchar *id = g_strdup_printf ("%s/%s", group, key);
  GtkWidget *c = g_hash_table_lookup (app->controls, id);

  g_free (id);
  return c;
}

gboolean
view_app_save (ViewApp * app, const gchar * path, GError ** error)
{
  return app->save (app, path, error);
}

gboolean
view_app_load (ViewApp * app, const gchar * path, GError ** error)
{
  return app->load (app, path, error);
}
