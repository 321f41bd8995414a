/* progress.c -- see progress.h. */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "opts.h"
#include "progress.h"

#define PROGRESS_AFTER_S 3.0 /* "a long run": quiet before */
#define PROGRESS_EVERY_S 0.2 /* redraws at most this often */
#define ETA_MIN_POINTS 3     /* points timed before an estimate is shown */

static struct {
    int on;
    const char *suite;
    double t_start, t_drawn;
    long expected, begun;
    double t_first;          /* when the first point began */
    int shown;               /* the line is on the terminal */
    int status;              /* what is a status, not a point */
    int stdout_tty;          /* rows on stdout would land on the line */
    char what[96];
    size_t bytes;
} pg;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_progress_open(const char *suite, int enabled)
{
    memset(&pg, 0, sizeof pg);
    pg.on = enabled && isatty(STDERR_FILENO);
    pg.suite = suite;
    pg.stdout_tty = isatty(STDOUT_FILENO);
    pg.t_start = now_s();
}

void bench_progress_expect(long n)
{
    pg.expected += n;
}

static void format_duration(double s, char *buf, size_t len)
{
    if (s < 90.0)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400.0)
        snprintf(buf, len, "%.0f min", s / 60.0);
    else
        snprintf(buf, len, "%.1f h", s / 3600.0);
}

static int columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8)
        return ws.ws_col;
    return 80;
}

static void draw(double t)
{
    char line[256], size[24] = "", count[48] = "", elapsed[24], left[40] = "";
    if (pg.bytes > 0)
        bench_format_size(pg.bytes, size, sizeof size);
    if (pg.status)
        snprintf(count, sizeof count, "after %ld points", pg.begun);
    else if (pg.expected > 0 && pg.begun <= pg.expected)
        snprintf(count, sizeof count, "%ld/%ld", pg.begun, pg.expected);
    else
        snprintf(count, sizeof count, "point %ld", pg.begun);
    format_duration(t - pg.t_start, elapsed, sizeof elapsed);
    long done = pg.begun - 1; /* the current point is still running */
    if (!pg.status && pg.expected > 0 && done >= ETA_MIN_POINTS &&
        pg.begun <= pg.expected) {
        char d[24];
        format_duration((t - pg.t_first) / (double)done *
                            (double)(pg.expected - done), d, sizeof d);
        snprintf(left, sizeof left, ", about %s left", d);
    }
    int n = snprintf(line, sizeof line, "%s: %s%s%s  (%s, %s%s)", pg.suite,
                     pg.what, size[0] ? " " : "", size, count, elapsed, left);
    /* A line longer than the terminal would wrap, and \r would not return
     * to its start. */
    int width = columns() - 1;
    if (n > width)
        n = width;
    if (n < 0)
        n = 0;
    fprintf(stderr, "\r%.*s\033[K", n, line);
    fflush(stderr);
    pg.shown = 1;
    pg.t_drawn = t;
}

void bench_progress_point(const char *what, size_t bytes)
{
    if (!pg.on)
        return;
    double t = now_s();
    if (pg.begun++ == 0)
        pg.t_first = t;
    snprintf(pg.what, sizeof pg.what, "%s", what);
    pg.bytes = bytes;
    pg.status = 0;
    bench_progress_tick();
}

void bench_progress_status(const char *what)
{
    if (!pg.on)
        return;
    snprintf(pg.what, sizeof pg.what, "%s", what);
    pg.bytes = 0;
    pg.status = 1;
    pg.t_drawn = 0.0; /* a new status is drawn at once */
    bench_progress_tick();
}

int bench_progress_on(void)
{
    return pg.on;
}

void bench_progress_tick(void)
{
    if (!pg.on)
        return;
    double t = now_s();
    if (t - pg.t_start < PROGRESS_AFTER_S ||
        (pg.shown && t - pg.t_drawn < PROGRESS_EVERY_S))
        return;
    draw(t);
}

static void erase(void)
{
    if (!pg.shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    pg.shown = 0;
}

void bench_progress_hide(void)
{
    if (pg.stdout_tty)
        erase();
}

void bench_progress_close(void)
{
    erase();
    pg.on = 0;
}
