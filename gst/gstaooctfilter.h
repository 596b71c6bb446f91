/* aooct: base class of the processing elements.
 *
 * GstAooctFilter holds what aooctdcsub, aooctpad, aooctkmap, aooctdisp,
 * aooctfft and aooctnorm share: caps parsing into an AooctGeometry, the
 * derivation of the output caps from the input caps (each subclass says how
 * its step changes the geometry), the check that upstream and downstream
 * agree, the size check of every buffer, mapping, backend dispatch and
 * turning core errors into element errors.  A subclass implements only its
 * step: derive_output(), setup() for the negotiated geometry, process_cpu(),
 * and teardown(). */
#ifndef __GST_AOOCT_FILTER_H__
#define __GST_AOOCT_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "aooct-geometry.h"

G_BEGIN_DECLS

#define GST_TYPE_AOOCT_FILTER            (gst_aooct_filter_get_type())
#define GST_AOOCT_FILTER(obj)            (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_AOOCT_FILTER,GstAooctFilter))
#define GST_AOOCT_FILTER_CLASS(klass)    (G_TYPE_CHECK_CLASS_CAST((klass),GST_TYPE_AOOCT_FILTER,GstAooctFilterClass))
#define GST_AOOCT_FILTER_GET_CLASS(obj)  (G_TYPE_INSTANCE_GET_CLASS((obj),GST_TYPE_AOOCT_FILTER,GstAooctFilterClass))
#define GST_IS_AOOCT_FILTER(obj)         (G_TYPE_CHECK_INSTANCE_TYPE((obj),GST_TYPE_AOOCT_FILTER))

typedef struct _GstAooctFilter GstAooctFilter;
typedef struct _GstAooctFilterClass GstAooctFilterClass;

typedef enum
{
  GST_AOOCT_BACKEND_AUTO,
  GST_AOOCT_BACKEND_CPU,
  GST_AOOCT_BACKEND_CUDA
} GstAooctBackend;

#define GST_TYPE_AOOCT_BACKEND (gst_aooct_backend_get_type ())
GType gst_aooct_backend_get_type (void);

/* One mapped buffer as a process function sees it: A-line (or image row)
 * r starts at data + r * stride. */
typedef struct
{
  guint8 *data;
  gsize stride;
} AooctPlane;

struct _GstAooctFilter
{
  GstBaseTransform parent;

  /*< protected: valid from set_caps() until teardown() >*/
  gboolean configured;
  AooctGeometry in_geom;        /* geometry of the input buffers */
  AooctGeometry out_geom;       /* as derived by derive_output() */
  GstVideoInfo in_vinfo;        /* when the sink caps are video/x-raw */
  GstVideoInfo out_vinfo;       /* when the src caps are video/x-raw */
  GstAooctBackend active_backend;       /* backend chosen at set_caps() */

  /*< private >*/
  GstAooctBackend backend;      /* property */
  gint device_id;               /* property */
};

struct _GstAooctFilterClass
{
  GstBaseTransformClass parent_class;

  /* Set by subclasses whose sink or src pad carries video/x-raw GRAY8 /
   * GRAY16_LE instead of application/x-aooct. */
  gboolean sink_is_video;
  gboolean src_is_video;

  /* Input geometry from fixed sink caps.  Default: application/x-aooct
   * parsing.  Subclasses with video/x-raw sink caps override it. */
  gboolean (*parse_sink_caps) (GstAooctFilter * self, const GstCaps * caps,
      AooctGeometry * in, GError ** error);

  /* The output geometry this step produces from @in with the current
   * properties; FALSE with a message naming the problem when @in cannot be
   * processed (wrong domain, missing step, impossible property). */
  gboolean (*derive_output) (GstAooctFilter * self, const AooctGeometry * in,
      AooctGeometry * out, GError ** error);

  /* Src caps for @out.  Default: application/x-aooct.  May return several
   * structures (e.g. output formats); downstream picks one. */
  GstCaps *(*output_caps) (GstAooctFilter * self, const AooctGeometry * out);

  /* Build whatever the step needs for the negotiated in_geom / out_geom /
   * out_vinfo: FFT plans, calibration tables, scratch memory. */
  gboolean (*setup) (GstAooctFilter * self, GError ** error);

  /* Process one buffer (in_geom.bscans B-scans) on the CPU. */
  gboolean (*process_cpu) (GstAooctFilter * self, const AooctPlane * in,
      AooctPlane * out, GError ** error);

  /* Free what setup() built; called before a new setup() and at stop. */
  void (*teardown) (GstAooctFilter * self);
};

GType gst_aooct_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstAooctFilter, gst_object_unref)

/* Posts @error (AOOCT_ERROR domain) as an element error of the matching
 * GStreamer category and keeps ownership with the caller. */
void gst_aooct_filter_post_error (GstAooctFilter * self, const GError * error);

/* Renegotiate and rebuild at the next buffer (after a property that changes
 * the output geometry or the tables has changed). */
void gst_aooct_filter_reconfigure (GstAooctFilter * self);

/* Adds the sink and src pad templates: @sink_caps / @src_caps strings. */
void gst_aooct_filter_class_add_pad_templates (GstAooctFilterClass * klass,
    const gchar * sink_caps, const gchar * src_caps);

G_END_DECLS

#endif /* __GST_AOOCT_FILTER_H__ */
