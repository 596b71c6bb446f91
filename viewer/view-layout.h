/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: which controls the window has, in which section. */
#ifndef VIEW_LAYOUT_H
#define VIEW_LAYOUT_H

#include "view-controls.h"

G_BEGIN_DECLS

/* The settings group every element with a backend property follows. */
#define VIEW_CHAIN "chain"

extern const ViewControlSpec view_source_specs[];
extern const ViewControlSpec view_dispersion_specs[];
extern const ViewControlSpec view_display_specs[];
extern const ViewControlSpec view_averaging_specs[];
extern const ViewControlSpec view_spectrum_specs[];
extern const ViewControlSpec view_views_specs[];
extern const ViewControlSpec view_flow_specs[];
extern const ViewControlSpec view_registration_specs[];
extern const ViewControlSpec view_org_specs[];
extern const ViewControlSpec view_record_specs[];

GParamSpec *view_layout_own_pspec (const gchar * group, const gchar * key);
gboolean view_layout_is_own_group (const gchar * group);
gboolean view_layout_is_deferred (const gchar * group, const gchar * key);
const gchar *view_layout_settings_group (const gchar * group);
GParamSpec *view_layout_pspec (const gchar * group, const gchar * key);

G_END_DECLS
#endif
