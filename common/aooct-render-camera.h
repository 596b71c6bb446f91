/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the ray-casting camera of aooctrender (spec section 11), shared
 * by the CPU core (aooct-cpu-views.c) and the CUDA kernels
 * (cuda/aooct-cuda-views.cu), so that both sample the very same voxels.
 *
 * Volume coordinates: x = A-line m, y = B-scan v, z = depth row r (after
 * the crop); voxel (m, v, r) fills [m, m+1) x [v, v+1) x [r, r+1).  The
 * camera is orthographic.  At azimuth 0 and elevation 0 it looks along
 * the B-scan axis (image columns = A-lines, image rows = depth), at
 * elevation 90 along the depth axis from the surface (columns = A-lines,
 * rows = B-scans); the azimuth turns it about the depth axis, so +180
 * mirrors the image left to right.  Image pixel (i, j) casts a ray
 * through the point centre + (i + 1/2 - W/2) right / zoom + (j + 1/2 -
 * H/2) down / zoom and samples it one voxel apart at positions chosen so
 * that a ray along an axis hits voxel centres: each voxel of its row
 * exactly once, nearest-neighbour, which makes the two checkable views of
 * the spec exact.
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_RENDER_CAMERA_H__
#define __AOOCT_RENDER_CAMERA_H__

#include <math.h>

#ifdef __CUDACC__
#define AOOCT_RENDER_HOST_DEVICE __host__ __device__
#else
#define AOOCT_RENDER_HOST_DEVICE
#endif

/* composite: opacity per voxel step of a voxel of normalised value v is
 * AOOCT_RENDER_OPACITY * v^2 (dim speckle and noise stay transparent, bright
 * layers build up); rays stop once this opaque */
#define AOOCT_RENDER_OPACITY 0.1f
#define AOOCT_RENDER_OPAQUE 0.995f

typedef struct
{
  float origin[3];              /* sample 0 of pixel (0, 0) */
  float col[3];                 /* step per image column */
  float row[3];                 /* step per image row */
  float step[3];                /* step per sample along the ray */
  int samples;                  /* samples per ray */
  int nx, ny, nz;               /* M, V, depth rows */
  int width, height;
} AooctRenderCamera;

/* The image size that shows the whole volume at these angles and zoom 1:
 * M x V at elevation 90, M x rows at elevation 0 (azimuth 0). */
static inline void
aooct_render_auto_size (int nx, int ny, int nz, double azimuth_deg,
    double elevation_deg, int *width, int *height)
{
  const double a = azimuth_deg * M_PI / 180.0, e = elevation_deg * M_PI / 180.0;
  double w = fabs (cos (a)) * nx + fabs (sin (a)) * ny;
  double h = fabs (sin (e)) * (fabs (sin (a)) * nx + fabs (cos (a)) * ny)
      + fabs (cos (e)) * nz;

  *width = (int) floor (w + 0.5) > 1 ? (int) floor (w + 0.5) : 1;
  *height = (int) floor (h + 0.5) > 1 ? (int) floor (h + 0.5) : 1;
}

static inline double
aooct_render_snap (double v)
{
  /* cos (90 deg) is 6e-17, not 0: make the axis views exact */
  return fabs (v) < 1e-12 ? 0.0 : v;
}

static inline void
aooct_render_camera_init (AooctRenderCamera * c, int nx, int ny, int nz,
    int width, int height, double azimuth_deg, double elevation_deg,
    double zoom)
{
  const double a = azimuth_deg * M_PI / 180.0, e = elevation_deg * M_PI / 180.0;
  const double ca = aooct_render_snap (cos (a)), sa =
      aooct_render_snap (sin (a));
  const double ce = aooct_render_snap (cos (e)), se =
      aooct_render_snap (sin (e));
  /* before the azimuth: right (1, 0, 0), down (0, se, ce), ray (0, -ce, se) */
  const double right[3] = { ca, sa, 0.0 };
  const double down[3] = { -sa * se, ca * se, ce };
  const double dir[3] = { sa * ce, -ca * ce, se };
  const double dims[3] = { (double) nx, (double) ny, (double) nz };
  double half, phase, big = -1.0;
  int k, axis = 0, n_half;

  for (k = 0; k < 3; k++) {
    if (fabs (dir[k]) > big) {
      big = fabs (dir[k]);
      axis = k;
    }
  }
  /* samples at voxel centres along the dominant axis: t + dims/2 in Z + 1/2 */
  phase = fmod (dims[axis], 2.0) == 0.0 ? 0.5 : 0.0;
  half = 0.5 * sqrt (dims[0] * dims[0] + dims[1] * dims[1] + dims[2] * dims[2]);
  n_half = (int) ceil (half) + 1;
  c->samples = 2 * n_half;
  for (k = 0; k < 3; k++) {
    double centre = 0.5 * dims[k];
    c->col[k] = (float) (right[k] / zoom);
    c->row[k] = (float) (down[k] / zoom);
    c->step[k] = (float) dir[k];
    c->origin[k] = (float) (centre + (0.5 - 0.5 * width) * right[k] / zoom
        + (0.5 - 0.5 * height) * down[k] / zoom + (phase - n_half) * dir[k]);
  }
  c->nx = nx;
  c->ny = ny;
  c->nz = nz;
  c->width = width;
  c->height = height;
}

/* Start of the ray of pixel (i, j). */
static inline AOOCT_RENDER_HOST_DEVICE void
aooct_render_ray (const AooctRenderCamera * c, int i, int j, float p[3])
{
  int k;

  for (k = 0; k < 3; k++)
    p[k] = c->origin[k] + (float) i *c->col[k] + (float) j *c->row[k];
}

/* The voxel index of sample @s of the ray starting at @p, or -1 outside
 * the first @filled B-scans of the volume. */
static inline AOOCT_RENDER_HOST_DEVICE long long
aooct_render_voxel (const AooctRenderCamera * c, const float p[3], int s,
    int filled)
{
  const float x = p[0] + (float) s * c->step[0];
  const float y = p[1] + (float) s * c->step[1];
  const float z = p[2] + (float) s * c->step[2];
  int m, v, r;

  if (!(x >= 0.0f && y >= 0.0f && z >= 0.0f))
    return -1;
  m = (int) x;
  v = (int) y;
  r = (int) z;
  if (m >= c->nx || v >= filled || r >= c->nz)
    return -1;
  return ((long long) v * c->nx + m) * c->nz + r;
}

/* Front-to-back emission-absorption: one sample of normalised value @v. */
static inline AOOCT_RENDER_HOST_DEVICE int
aooct_render_composite_step (float v, float *colour, float *alpha)
{
  float a;

  v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  a = AOOCT_RENDER_OPACITY * v * v;
  *colour += (1.0f - *alpha) * a * v;
  *alpha += (1.0f - *alpha) * a;
  return *alpha < AOOCT_RENDER_OPAQUE;
}

#endif /* __AOOCT_RENDER_CAMERA_H__ */
