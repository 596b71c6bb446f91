/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctbin, the whole reconstruction chain as one element. */
#ifndef __GST_AOOCT_BIN_H__
#define __GST_AOOCT_BIN_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_BIN (gst_aooct_bin_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctBin, gst_aooct_bin, GST, AOOCT_BIN, GstBin);

GST_ELEMENT_REGISTER_DECLARE (aooctbin);

G_END_DECLS

#endif /* __GST_AOOCT_BIN_H__ */
