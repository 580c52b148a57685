/*
 * The chart, as an SVG file any browser shows: one band per benchmark, two
 * panels side by side.
 *   left:  each platform's speed relative to the C + OpenMP twin (twin's
 *          time / platform's time), on a log2 axis: right of 1, faster than
 *          the C a user would write;
 *   right: each implementation's share of its roof (triad bandwidth or
 *          FMA peak; the twin's bandwidth for rows through __local memory
 *          and barriers), twin included; latency rows have no roof.
 * A failed implementation is drawn as a red FAIL, one that crashed as a red
 * "crashed", never as a bar.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>

static const char *const palette[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2" };
#define TWIN_COLOR "#7f7f7f"

enum {
    WIDTH = 1100,
    LABEL_X = 12,          /* benchmark names */
    A_X0 = 170, A_X1 = 560, /* left panel */
    B_X0 = 660, B_X1 = 1040, /* right panel */
    TOP = 118,             /* first band */
    BAR_H = 10,
    BAND_GAP = 10,
};

static const char *color_of(const run_info *run, int i)
{
    return i == run->twin ? TWIN_COLOR : palette[i % (int)(sizeof palette / sizeof *palette)];
}

static void text(FILE *f, double x, double y, const char *anchor, const char *style, const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>", x, y, anchor, style);
    for (; *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
    fputs("</text>\n", f);
}

static const char *status_word(const impl_result *x) { return x->status == STATUS_FAIL ? "FAIL" : "crashed"; }

int svg_write(const char *path, const run_info *run, const bench_result *results, int n)
{
    /* The left axis: powers of two around every speed-up, 1 included. */
    double lo = 1, hi = 1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < run->nplatforms; i++) {
            double r = result_ratio(&results[k].impl[run->twin], &results[k].impl[i]);
            if (r > 0) {
                lo = r < lo ? r : lo;
                hi = r > hi ? r : hi;
            }
        }
    int e_lo = (int)floor(log2(lo)), e_hi = (int)ceil(log2(hi));
    e_lo = e_lo < -12 ? -12 : e_lo;
    e_hi = e_hi > 12 ? 12 : e_hi;
    if (e_hi - e_lo < 2) {
        e_lo -= 1;
        e_hi += 1;
    }
    /* The right axis: 0 to 100%, further if a share is above. */
    double top_share = 1.0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i <= run->twin; i++) {
            double s = result_share(run, &results[k], &results[k].impl[i]);
            top_share = s > top_share ? s : top_share;
        }
    top_share = ceil(top_share * 4) / 4;
    top_share = top_share > 4 ? 4 : top_share;

    int bars = run->nplatforms + 1;
    int band = bars * BAR_H + BAND_GAP;
    int height = TOP + n * band + 60;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            WIDTH, height, WIDTH, height);
    char buf[512];
    snprintf(buf, sizeof buf, "Mosaic benchmark runner: %s, %d thread%s, %s", run->cpu, run->threads,
             run->threads == 1 ? "" : "s", run->date);
    text(f, LABEL_X, 22, "start", "font-size=\"15\" font-weight=\"bold\"", buf);
    snprintf(buf, sizeof buf,
             "median of %d runs; roofs read in every round of a row: triad %.1f-%.1f GB/s, FMA peak %.0f-%.0f "
             "GFLOP/s (%s); C twins -O3 -march=%s",
             run->reps, run->triad_low, run->triad_gbs, run->fma_low, run->fma_gflops, run->isa, run->march);
    text(f, LABEL_X, 40, "start", "fill=\"#444\"", buf);

    /* Legend. */
    double lx = LABEL_X;
    for (int i = 0; i < bars; i++) {
        const char *name = impl_name(run, i);
        fprintf(f, "<rect x=\"%.1f\" y=\"52\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", lx, color_of(run, i));
        snprintf(buf, sizeof buf, "%s%s", name, i == run->twin ? " (the twin)" : "");
        text(f, lx + 16, 62, "start", "", buf);
        lx += 40 + 7.0 * (double)snprintf(NULL, 0, "%s", buf);
    }

    text(f, (A_X0 + A_X1) / 2.0, 86, "middle", "font-weight=\"bold\"", "speed relative to the C + OpenMP twin");
    text(f, (A_X0 + A_X1) / 2.0, 100, "middle", "fill=\"#444\"", "twin's time / platform's time, log scale: right of 1 is faster than C");
    text(f, (B_X0 + B_X1) / 2.0, 86, "middle", "font-weight=\"bold\"", "share of the roof");
    text(f, (B_X0 + B_X1) / 2.0, 100, "middle", "fill=\"#444\"",
         "memory-bound: of the triad bandwidth (through barriers: of the twin's); compute-bound: of the FMA peak");

#define AX(r) (A_X0 + (A_X1 - A_X0) * (log2(r) - e_lo) / (double)(e_hi - e_lo))
#define BX(s) (B_X0 + (B_X1 - B_X0) * (s) / top_share)
    int bottom = TOP + n * band;
    /* Grids and axes. */
    int step = (e_hi - e_lo + 7) / 8; /* at most 9 labels; 1x always one */
    for (int e = e_lo; e <= e_hi; e++) {
        if (e % step)
            continue;
        double x = AX(pow(2, e));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>\n", x, TOP - 4,
                x, bottom, e == 0 ? "#000" : "#ddd", e == 0 ? "1.2" : "1");
        if (e >= 0)
            snprintf(buf, sizeof buf, "%gx", pow(2, e));
        else
            snprintf(buf, sizeof buf, "1/%gx", pow(2, -e));
        text(f, x, bottom + 14, "middle", "", buf);
    }
    for (double s = 0; s <= top_share + 1e-9; s += 0.25) {
        double x = BX(s);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x, TOP - 4, x, bottom,
                s == 0 || fabs(s - 1) < 1e-9 ? "#000" : "#ddd");
        snprintf(buf, sizeof buf, "%.0f%%", s * 100);
        text(f, x, bottom + 14, "middle", "", buf);
    }

    for (int k = 0; k < n; k++) {
        const bench_result *r = &results[k];
        int y0 = TOP + k * band;
        if (k % 2 == 0)
            fprintf(f, "<rect x=\"4\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n", y0 - 3, WIDTH - 8,
                    band - 4);
        if (k > 0 && r->group != results[k - 1].group)
            fprintf(f, "<line x1=\"4\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", y0 - 4, WIDTH - 4, y0 - 4);
        text(f, LABEL_X, y0 + bars * BAR_H / 2.0 + 3, "start", "font-weight=\"bold\"", r->name);
        for (int i = 0; i < bars; i++) {
            const impl_result *x = &r->impl[i];
            double y = y0 + i * BAR_H;
            /* Left panel: platforms only. */
            if (i < run->nplatforms) {
                if (x->status == STATUS_FAIL || x->status == STATUS_CRASH)
                    text(f, AX(1) + 4, y + BAR_H - 2, "start", "fill=\"#d00\" font-weight=\"bold\"", status_word(x));
                else {
                    double ratio = result_ratio(&r->impl[run->twin], x);
                    if (ratio > 0) {
                        double shown = fmin(fmax(ratio, pow(2, e_lo)), pow(2, e_hi));
                        double x1 = AX(1), x2 = AX(shown);
                        fprintf(f,
                                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: "
                                "%.3gx the twin's speed</title></rect>\n",
                                fmin(x1, x2), y, fabs(x2 - x1) + 0.5, BAR_H - 2, color_of(run, i), r->name,
                                impl_name(run, i), ratio);
                        snprintf(buf, sizeof buf, ratio < 10 ? "%.2fx" : "%.0fx", ratio);
                        text(f, x2 + (ratio >= 1 ? 3 : -3), y + BAR_H - 2, ratio >= 1 ? "start" : "end",
                             "font-size=\"9\"", buf);
                    } else if (r->impl[run->twin].status == STATUS_FAIL)
                        text(f, AX(1) + 4, y + BAR_H - 2, "start", "fill=\"#d00\" font-size=\"9\"", "(twin FAIL)");
                }
            }
            /* Right panel: platforms and twin. */
            if (r->bound == BOUND_LATENCY) {
                if (i == 0)
                    text(f, B_X0 + 4, y0 + bars * BAR_H / 2.0 + 3, "start", "fill=\"#888\"",
                         "latency: no roof (time per launch in the table)");
                continue;
            }
            if (x->status == STATUS_FAIL || x->status == STATUS_CRASH) {
                text(f, B_X0 + 4, y + BAR_H - 2, "start", "fill=\"#d00\" font-weight=\"bold\"", status_word(x));
                continue;
            }
            double share = result_share(run, r, x);
            if (share < 0) {
                if (i == 0)
                    text(f, B_X0 + 4, y0 + bars * BAR_H / 2.0 + 3, "start", "fill=\"#888\"",
                         "no flop count: no roof");
                continue;
            }
            double shown = fmin(share, top_share);
            fprintf(f,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: %.1f%% of the "
                    "roof</title></rect>\n",
                    B_X0, y, BX(shown) - B_X0 + 0.5, BAR_H - 2, color_of(run, i), r->name, impl_name(run, i),
                    share * 100);
            snprintf(buf, sizeof buf, share < 0.1 ? "%.1f%%" : "%.0f%%", share * 100);
            text(f, BX(shown) + 3, y + BAR_H - 2, "start", "font-size=\"9\"", buf);
        }
    }
#undef AX
#undef BX
    fputs("</svg>\n", f);
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}
