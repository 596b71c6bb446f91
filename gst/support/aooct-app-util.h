/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: small helpers for programs that build aooct pipelines (the
 * benchmark, the tests); not part of the plugin. */
#ifndef __AOOCT_APP_UTIL_H__
#define __AOOCT_APP_UTIL_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Sets the boolean property @name to @value on every element of @bin, at
 * any depth, that has it (e.g. defer-steps or cuda-graphs on each aooct
 * processing element of a parsed pipeline). */
void aooct_app_set_everywhere (GstElement * bin, const gchar * name,
    gboolean value);

G_END_DECLS
#endif /* __AOOCT_APP_UTIL_H__ */
