/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the CPU time of each thread of the process (see
 * aooct-bench-threads.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

#include "aooct-bench-threads.h"

typedef struct
{
  gint64 tid;
  guint64 ticks;                /* utime + stime, in clock ticks */
  gchar name[32];               /* what /proc/self/task/<tid>/comm holds */
} Thread;

struct _AooctBenchThreads
{
  GArray *threads;              /* of Thread */
};

/* One thread's line of /proc/self/task/<tid>/stat: "tid (comm) state ppid
 * ... utime stime ...", utime and stime the 14th and 15th fields; comm
 * may hold spaces and parentheses, so the fields are counted from the
 * last ')'. */
static gboolean
read_thread (const gchar * tid, Thread * t)
{
  gchar *path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
  gchar *text = NULL, *open_paren, *close_paren, **fields = NULL;
  gboolean ok = FALSE;

  if (g_file_get_contents (path, &text, NULL, NULL)
      && (open_paren = strchr (text, '(')) != NULL
      && (close_paren = strrchr (text, ')')) != NULL
      && close_paren > open_paren) {
    /* fields[0] is the 3rd field (state) */
    fields = g_strsplit (g_strstrip (close_paren + 1), " ", 14);
    if (g_strv_length (fields) >= 14) {
      t->tid = g_ascii_strtoll (tid, NULL, 10);
      t->ticks = g_ascii_strtoull (fields[11], NULL, 10)
          + g_ascii_strtoull (fields[12], NULL, 10);
      *close_paren = '\0';
      g_strlcpy (t->name, open_paren + 1, sizeof t->name);
      ok = TRUE;
    }
  }
  g_strfreev (fields);
  g_free (text);
  g_free (path);
  return ok;
}

AooctBenchThreads *
aooct_bench_threads_read (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  AooctBenchThreads *res;
  const gchar *tid;

  if (dir == NULL)
    return NULL;
  res = g_new0 (AooctBenchThreads, 1);
  res->threads = g_array_new (FALSE, TRUE, sizeof (Thread));
  while ((tid = g_dir_read_name (dir)) != NULL) {
    Thread t;

    /* a thread that ended since the listing is simply not there */
    if (read_thread (tid, &t))
      g_array_append_val (res->threads, t);
  }
  g_dir_close (dir);
  return res;
}

void
aooct_bench_threads_free (AooctBenchThreads * t)
{
  if (t == NULL)
    return;
  g_array_unref (t->threads);
  g_free (t);
}

/* most CPU time first, then by thread id */
static gint
busier_first (gconstpointer a, gconstpointer b)
{
  const Thread *x = a, *y = b;

  if (x->ticks != y->ticks)
    return x->ticks < y->ticks ? 1 : -1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

gchar *
aooct_bench_threads_report (const AooctBenchThreads * start,
    const AooctBenchThreads * end, gdouble wall_s, guint top)
{
  const gdouble tick_s = 1.0 / sysconf (_SC_CLK_TCK);
  GArray *used = g_array_new (FALSE, TRUE, sizeof (Thread));
  GString *s = g_string_new (NULL);
  guint64 total = 0;
  guint i, j;

  for (i = 0; i < end->threads->len; i++) {
    Thread t = g_array_index (end->threads, Thread, i);

    for (j = 0; j < start->threads->len; j++) {
      const Thread *before = &g_array_index (start->threads, Thread, j);

      /* a thread id may be reused by a later thread: not by one that used
       * less time than the earlier one */
      if (before->tid == t.tid && before->ticks <= t.ticks) {
        t.ticks -= before->ticks;
        break;
      }
    }
    total += t.ticks;
    g_array_append_val (used, t);
  }
  g_array_sort (used, busier_first);
  /* Linux gives a new thread its creator's name: OpenMP's workers and
   * the CUDA driver's threads show the streaming thread that started
   * them */
  g_string_append_printf (s, "  CPU time of the threads in the timed part "
      "(%.3f s wall; %% of it, 100 %% = one core busy all along; "
      "%u threads, together %.0f %%; clock ticks of %.0f ms; an unnamed "
      "thread shows its creator's name):\n", wall_s, used->len,
      100.0 * total * tick_s / wall_s, tick_s * 1e3);
  for (i = 0; i < used->len && i < top; i++) {
    const Thread *t = &g_array_index (used, Thread, i);

    g_string_append_printf (s, "    %-16s tid %-8" G_GINT64_FORMAT
        " %8.3f s %6.1f %%\n", t->name, t->tid, t->ticks * tick_s,
        100.0 * t->ticks * tick_s / wall_s);
  }
  g_array_unref (used);
  return g_string_free (s, FALSE);
}
