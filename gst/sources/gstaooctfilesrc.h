/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctfilesrc, raw B-scans from a file, read by several threads. */
#ifndef __GST_AOOCT_FILE_SRC_H__
#define __GST_AOOCT_FILE_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_FILE_SRC (gst_aooct_file_src_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctFileSrc, gst_aooct_file_src, GST,
    AOOCT_FILE_SRC, GstPushSrc);

GST_ELEMENT_REGISTER_DECLARE (aooctfilesrc);

G_END_DECLS

#endif /* __GST_AOOCT_FILE_SRC_H__ */
