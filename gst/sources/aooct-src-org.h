/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctsrc's properties of the photoreceptor phantom
 * (phantom=photoreceptors, common/aooct-synth-org.h), kept apart from the
 * camera's: ids AOOCT_SRC_ORG_FIRST .. AOOCT_SRC_ORG_FIRST +
 * AOOCT_SRC_ORG_PROPS - 1. */
#ifndef __AOOCT_SRC_ORG_H__
#define __AOOCT_SRC_ORG_H__

#include <gst/gst.h>
#include "aooct-synth-org.h"

G_BEGIN_DECLS

#define AOOCT_SRC_ORG_FIRST 1000
#define AOOCT_SRC_ORG_PROPS 12

void aooct_src_org_install (GObjectClass * klass, GParamFlags flags);
/* FALSE when @prop_id is none of them */
gboolean aooct_src_org_set (AooctSynthOrg * o, guint prop_id,
    const GValue * value);
gboolean aooct_src_org_get (const AooctSynthOrg * o, guint prop_id,
    GValue * value);

G_END_DECLS
#endif /* __AOOCT_SRC_ORG_H__ */
