/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-cupti-trace: a GPU timeline of any program, without Nsight Systems
 * (which the lent GPU machine lacks).  Loaded with LD_PRELOAD, it asks CUPTI
 * (CUDA's profiling interface, shipped with the toolkit) for the start and
 * end of every kernel, copy and memset on the GPU, with its stream, and of
 * every CUDA runtime and driver call on the host, with its thread, and
 * writes them to the file $AOOCT_CUPTI_TRACE.PID when the program exits
 * (the process id keeps a gst-plugin-scanner child from overwriting its
 * parent's file): one record a line,
 *
 *   K start end stream name          a kernel (cuFFT's included)
 *   C start end stream bytes kind    a copy (kind: HtoD, DtoH, DtoD, ...)
 *   S start end stream bytes         a memset
 *   R start end thread name          a runtime call (cudaMemcpyAsync, ...)
 *   D start end thread name          a driver call (cuLaunchKernel, ...)
 *   W start end thread name          a host wait outside CUDA: g_cond_wait,
 *                                    g_cond_wait_until (GStreamer's queues,
 *                                    aooct's output ring and readers),
 *                                    gst_buffer_pool_acquire_buffer
 *
 * times in ns on CUPTI's clock.  scripts/gpu/gpu-timeline.py reads it (where
 * each microsecond of a buffer goes: GPU busy time, the gaps, the copy
 * engines, the host calls per buffer).  Development tool, not installed;
 * built by scripts/gpu/gpu-timeline.sh:
 *
 *   cc -O2 -shared -fPIC -o aooct-cupti-trace.so tools/aooct-cupti-trace.c \
 *      -I$CUDA/include -L$CUPTI_LIB -lcupti
 *
 * The records of CUPTI's activity API have a version per CUDA release; the
 * ones used here are those of CUDA 13 (CUpti_ActivityKernel10, Memcpy6,
 * Memset4, API).  The waits are caught by defining those three functions
 * here, under C names of their own exported as theirs (LD_PRELOAD puts
 * them before GLib's and GStreamer's for every call through the dynamic
 * linker) and timed on CUPTI's clock; a thread is
 * named as CUPTI names it (pthread_self, cut to 32 bits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <cupti.h>

#define BUFFER_BYTES (16u << 20)

static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *
copy_kind (uint8_t k)
{
  switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "HtoH";
    default:
      return "other";
  }
}

static void
write_record (const CUpti_Activity * r)
{
  const char *name = NULL;

  switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:{
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *) r;
      fprintf (out, "K %llu %llu %u %s\n", (unsigned long long) k->start,
          (unsigned long long) k->end, k->streamId, k->name ? k->name : "?");
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY:{
      const CUpti_ActivityMemcpy6 *c = (const CUpti_ActivityMemcpy6 *) r;
      fprintf (out, "C %llu %llu %u %llu %s\n", (unsigned long long) c->start,
          (unsigned long long) c->end, c->streamId,
          (unsigned long long) c->bytes, copy_kind (c->copyKind));
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET:{
      const CUpti_ActivityMemset4 *s = (const CUpti_ActivityMemset4 *) r;
      fprintf (out, "S %llu %llu %u %llu\n", (unsigned long long) s->start,
          (unsigned long long) s->end, s->streamId,
          (unsigned long long) s->bytes);
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:{
      const CUpti_ActivityAPI *a = (const CUpti_ActivityAPI *) r;
      int runtime = r->kind == CUPTI_ACTIVITY_KIND_RUNTIME;

      if (cuptiGetCallbackName (runtime ? CUPTI_CB_DOMAIN_RUNTIME_API :
              CUPTI_CB_DOMAIN_DRIVER_API, a->cbid, &name) != CUPTI_SUCCESS)
        name = "?";
      fprintf (out, "%c %llu %llu %u %s\n", runtime ? 'R' : 'D',
          (unsigned long long) a->start, (unsigned long long) a->end,
          a->threadId, name);
      break;
    }
    default:
      break;
  }
}

static void CUPTIAPI
buffer_requested (uint8_t ** buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (8, BUFFER_BYTES);
  *size = *buffer ? BUFFER_BYTES : 0;
  *max_records = 0;
}

static void CUPTIAPI
buffer_completed (CUcontext ctx, uint32_t stream, uint8_t * buffer,
    size_t size, size_t valid)
{
  CUpti_Activity *r = NULL;

  (void) ctx;
  (void) stream;
  (void) size;
  pthread_mutex_lock (&lock);
  while (out && cuptiActivityGetNextRecord (buffer, valid, &r) == CUPTI_SUCCESS)
    write_record (r);
  pthread_mutex_unlock (&lock);
  free (buffer);
}

static void
finish (void)
{
  size_t dropped = 0;

  cuptiActivityFlushAll (1);
  pthread_mutex_lock (&lock);
  if (out) {
    if (cuptiActivityGetNumDroppedRecords (NULL, 0, &dropped) ==
        CUPTI_SUCCESS && dropped)
      fprintf (out, "# dropped %zu records\n", dropped);
    fclose (out);
    out = NULL;
  }
  pthread_mutex_unlock (&lock);
}

static void
cupti_check (CUptiResult r, const char *what)
{
  const char *msg = NULL;

  if (r == CUPTI_SUCCESS)
    return;
  cuptiGetResultString (r, &msg);
  fprintf (stderr, "aooct-cupti-trace: %s: %s\n", what, msg ? msg : "?");
}

/* A host wait of @name from @start to now, on this thread. */
static void
write_wait (const char *name, uint64_t start)
{
  uint64_t end = 0;

  if (out == NULL || cuptiGetTimestamp (&end) != CUPTI_SUCCESS)
    return;
  pthread_mutex_lock (&lock);
  if (out)
    fprintf (out, "W %llu %llu %u %s\n", (unsigned long long) start,
        (unsigned long long) end, (unsigned) (uintptr_t) pthread_self (), name);
  pthread_mutex_unlock (&lock);
}

static uint64_t
now_ns (void)
{
  uint64_t t = 0;

  if (out)
    cuptiGetTimestamp (&t);
  return t;
}

/* GLib's and GStreamer's own, found behind us; GCond, GMutex, GstBufferPool
 * and the rest only as pointers, so that no GLib header is needed. */
static void *
next_symbol (const char *symbol)
{
  void *f = dlsym (RTLD_NEXT, symbol);

  if (f == NULL) {
    fprintf (stderr, "aooct-cupti-trace: no %s behind us\n", symbol);
    abort ();
  }
  return f;
}

/* The interposers: C names of their own, exported under the names of
 * the functions they stand before (GCC's asm labels), so that nothing
 * reading this file takes it for GLib's or GStreamer's definitions. */
void
traced_g_cond_wait (void *cond, void *mutex)
__asm__ ("g_cond_wait");
     int traced_g_cond_wait_until (void *cond, void *mutex, int64_t end_time)
  __asm__ ("g_cond_wait_until");
     int traced_gst_buffer_pool_acquire_buffer (void *pool, void **buffer,
    void *params) __asm__ ("gst_buffer_pool_acquire_buffer");

     void traced_g_cond_wait (void *cond, void *mutex)
{
  static void (*real) (void *, void *);
  uint64_t t = now_ns ();

  if (real == NULL)
    real = (void (*)(void *, void *)) next_symbol ("g_cond_wait");
  real (cond, mutex);
  if (t)
    write_wait ("g_cond_wait", t);
}

int
traced_g_cond_wait_until (void *cond, void *mutex, int64_t end_time)
{
  static int (*real) (void *, void *, int64_t);
  uint64_t t = now_ns ();
  int r;

  if (real == NULL)
    real = (int (*)(void *, void *, int64_t)) next_symbol ("g_cond_wait_until");
  r = real (cond, mutex, end_time);
  if (t)
    write_wait ("g_cond_wait_until", t);
  return r;
}

int
traced_gst_buffer_pool_acquire_buffer (void *pool, void **buffer, void *params)
{
  static int (*real) (void *, void **, void *);
  uint64_t t = now_ns ();
  int r;

  if (real == NULL)
    real = (int (*)(void *, void **, void *))
        next_symbol ("gst_buffer_pool_acquire_buffer");
  r = real (pool, buffer, params);
  if (t)
    write_wait ("gst_buffer_pool_acquire_buffer", t);
  return r;
}

__attribute__((constructor))
     static void start (void)
{
  const char *base = getenv ("AOOCT_CUPTI_TRACE");
  char path[4096];
  static const CUpti_ActivityKind kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
  };
  size_t i;

  if (base == NULL || *base == '\0')
    return;
  snprintf (path, sizeof (path), "%s.%ld", base, (long) getpid ());
  out = fopen (path, "w");
  if (out == NULL) {
    perror (path);
    return;
  }
  cupti_check (cuptiActivityRegisterCallbacks (buffer_requested,
          buffer_completed), "cuptiActivityRegisterCallbacks");
  for (i = 0; i < sizeof (kinds) / sizeof (kinds[0]); i++)
    cupti_check (cuptiActivityEnable (kinds[i]), "cuptiActivityEnable");
  atexit (finish);
}
