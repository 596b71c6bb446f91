/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctorg (spec section 13, optoretinography). */
#ifndef __GST_AOOCT_ORG_H__
#define __GST_AOOCT_ORG_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_ORG (gst_aooct_org_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctOrg, gst_aooct_org, GST, AOOCT_ORG,
    GstAooctFilter);

GST_ELEMENT_REGISTER_DECLARE (aooctorg);

G_END_DECLS
#endif /* __GST_AOOCT_ORG_H__ */
