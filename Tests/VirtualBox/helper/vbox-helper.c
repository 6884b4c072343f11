/*
 * vbox-helper: the guest-side instrument of the virtual bedside box (Tests/VirtualBox).
 *
 * Built on the host (Debian 12, same glibc and libasound as the guest; for an arm64 guest in
 * the arm64 root of its suite, under qemu-user) and installed in the
 * guest image as /usr/local/bin/vbox-helper. Every time it prints is CLOCK_MONOTONIC in
 * seconds with microseconds, the clock the kernel stamps GPIO edges with.
 *
 *   vbox-helper press PULL_ATTR SPEC
 *       Drives a gpio-sim input line through its sysfs `pull` attribute, on a schedule:
 *       SPEC is "MS:d,MS:u,..." (milliseconds from now; d = pull-down = pressed for an
 *       active-low button, u = pull-up = released). Prints "EDGE t=... d|u" per write.
 *   vbox-helper capture DEVICE SECONDS [WAV]
 *       Captures mono S16_LE 16 kHz from an ALSA device in real time and prints one line per
 *       tone it hears: "TONE on=T off=T ms=D hz=F peak=P rms=R wave=sine|square", plus
 *       "CAPTURE ..." at the end (frames, overruns, clock mapping). Optionally writes a WAV.
 *       Speech is told from tones (irregular zero crossings) and reported as one line per
 *       run of it: "SPEECH on=T off=T ms=D peak=P rms=R". "QUIET since=T" once 0.7 s
 *       have passed without sound after a run (a sentence has ended).
 *   vbox-helper analyse WAV [--windows]
 *       The same detector over a 16 kHz mono WAV file, times from its start (host-side check
 *       against boxd's WAV sink). --windows prints each 20 ms window's pitch and regularity.
 *   vbox-helper led DIR LINES SECONDS
 *       Samples gpio-sim output lines (DIR/sim_gpioN/value for N in LINES, "22,23,24")
 *       every 2 ms and prints "LED t=... v=101" at each change (values in LINES order).
 *   vbox-helper uled NAME SECONDS
 *       Makes an LED class device NAME (max_brightness 1) through /dev/uleds, the kernel's
 *       user-space LED driver, holds it for SECONDS (the device goes with the descriptor) and
 *       prints "ULED t=... b=N" each time the kernel sets its brightness: what a gpio LED
 *       would show, set by whatever trigger runs it. "ULED ready" once it exists.
 *   vbox-helper say TEXT...
 *       Writes one line to the results port and waits until it was sent (tcdrain), so a
 *       line the guest printed before a power cut is in the host's file. The port is the
 *       kernel command line's vbox.results=NAME (the host picks it with the machine: hvc0,
 *       a virtio console, on arm64's virt), /dev/ttyS1 without it (the amd64 guests).
 *   vbox-helper tty
 *       Prints the results port's path (for stty in ready.sh).
 *   vbox-helper clocks
 *       Prints CLOCK_REALTIME and CLOCK_MONOTONIC read back to back (to put wall-clock
 *       schedules on the monotonic timeline of the captures).
 *   vbox-helper adjtimex read|sync|unsync
 *       read: prints what adjtimex(2) returns here (state or errno) - run it inside a unit's
 *       sandbox to see what the unit allows. sync/unsync: clears/sets STA_UNSYNC (root).
 */
#define _GNU_SOURCE
#include <alsa/asoundlib.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double mono_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double t) {
    struct timespec ts;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

/* ---------------------------------------------------------------- press */

static int cmd_press(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: press PULL_ATTR SPEC\n"); return 2; }
    int fd = open(argv[0], O_WRONLY);
    if (fd < 0) { fprintf(stderr, "press: %s: %s\n", argv[0], strerror(errno)); return 1; }
    char *spec = strdup(argv[1]);
    double t0 = mono_now() + 0.005;
    for (char *item = strtok(spec, ","); item; item = strtok(NULL, ",")) {
        char *colon = strchr(item, ':');
        if (!colon) { fprintf(stderr, "press: bad item %s\n", item); return 2; }
        *colon = 0;
        double at = t0 + atof(item) / 1000.0;
        const char *what = colon[1] == 'd' ? "pull-down" : "pull-up";
        sleep_until(at);
        double before = mono_now();
        if (pwrite(fd, what, strlen(what), 0) < 0) { fprintf(stderr, "press: write: %s\n", strerror(errno)); return 1; }
        double after = mono_now();
        printf("EDGE t=%.6f dt=%.3fms late=%.3fms %c\n", before, (after - before) * 1000, (before - at) * 1000, colon[1]);
    }
    fflush(stdout);
    close(fd);
    return 0;
}

/* ---------------------------------------------------------------- led */

static int cmd_led(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: led DIR LINES SECONDS\n"); return 2; }
    int fds[8], n = 0;
    char *lines = strdup(argv[1]);
    for (char *l = strtok(lines, ","); l && n < 8; l = strtok(NULL, ",")) {
        char path[512];
        snprintf(path, sizeof path, "%s/sim_gpio%s/value", argv[0], l);
        fds[n] = open(path, O_RDONLY);
        if (fds[n] < 0) { fprintf(stderr, "led: %s: %s\n", path, strerror(errno)); return 1; }
        n++;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    double end = mono_now() + atof(argv[2]);
    char last[9] = "", cur[9];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (!stop_requested && mono_now() < end) {
        for (int i = 0; i < n; i++) {
            char b[4] = {0};
            cur[i] = pread(fds[i], b, sizeof b, 0) > 0 ? b[0] : '?';
        }
        cur[n] = 0;
        if (strcmp(cur, last) != 0) {
            printf("LED t=%.6f v=%s\n", mono_now(), cur);
            strcpy(last, cur);
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* ---------------------------------------------------------------- uled */

/* <linux/uleds.h>, which not every libc's kernel headers carry. */
struct vbox_uleds_user_dev {
    char name[64];
    int max_brightness;
};

static int cmd_uled(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: uled NAME SECONDS\n"); return 2; }
    int fd = open("/dev/uleds", O_RDWR);
    if (fd < 0) { fprintf(stderr, "uled: /dev/uleds: %s\n", strerror(errno)); return 1; }
    struct vbox_uleds_user_dev dev = {.max_brightness = 1};
    snprintf(dev.name, sizeof dev.name, "%s", argv[0]);
    if (write(fd, &dev, sizeof dev) != (ssize_t)sizeof dev) { fprintf(stderr, "uled: register: %s\n", strerror(errno)); return 1; }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("ULED ready t=%.6f\n", mono_now());
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    double end = mono_now() + atof(argv[1]);
    while (!stop_requested && mono_now() < end) {
        struct pollfd p = {fd, POLLIN, 0};
        int left = (int)((end - mono_now()) * 1000) + 1;
        if (poll(&p, 1, left > 0 ? left : 1) <= 0) continue;
        int b;
        if (read(fd, &b, sizeof b) == (ssize_t)sizeof b) printf("ULED t=%.6f b=%d\n", mono_now(), b);
    }
    close(fd);
    return 0;
}

/* ---------------------------------------------------------------- say */

/* The results port: /dev/NAME for vbox.results=NAME on the kernel command line, else ttyS1.
   The one place the guest's side names it. */
static const char *results_tty(void) {
    static char path[64] = "/dev/ttyS1";
    char line[4096];
    FILE *f = fopen("/proc/cmdline", "r");
    if (!f) return path;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    for (char *w = strtok(line, " \n"); w; w = strtok(NULL, " \n")) {
        if (strncmp(w, "vbox.results=", 13) == 0 && w[13] && !strchr(w + 13, '/'))
            snprintf(path, sizeof path, "/dev/%s", w + 13);
    }
    return path;
}

static int cmd_say(int argc, char **argv) {
    const char *tty = results_tty();
    int fd = open(tty, O_WRONLY | O_NOCTTY);
    if (fd < 0) { fprintf(stderr, "say: %s: %s\n", tty, strerror(errno)); return 1; }
    char buf[4096];
    size_t len = 0;
    for (int i = 0; i < argc && len < sizeof buf - 2; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - 2 - len, "%s%s", i ? " " : "", argv[i]);
    }
    if (len > sizeof buf - 2) len = sizeof buf - 2;
    buf[len++] = '\n';
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, buf + off, len - off);
        if (w < 0) { if (errno == EINTR) continue; return 1; }
        off += (size_t)w;
    }
    tcdrain(fd);
    close(fd);
    return 0;
}

/* ---------------------------------------------------------------- adjtimex */

static int cmd_adjtimex(int argc, char **argv) {
    if (argc != 1) { fprintf(stderr, "usage: adjtimex read|sync|unsync\n"); return 2; }
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    if (strcmp(argv[0], "read") == 0) {
        int rc = adjtimex(&tx);
        if (rc < 0) { printf("adjtimex rc=-1 errno=%s\n", strerrorname_np(errno)); return 0; }
        printf("adjtimex rc=%d state=%s status=0x%x\n", rc, rc == TIME_ERROR ? "TIME_ERROR" : rc == TIME_OK ? "TIME_OK" : "other", tx.status);
        return 0;
    }
    if (adjtimex(&tx) < 0) { perror("adjtimex"); return 1; }
    int status = tx.status;
    memset(&tx, 0, sizeof tx);
    tx.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR;
    tx.status = strcmp(argv[0], "sync") == 0 ? (status & ~STA_UNSYNC) : (status | STA_UNSYNC);
    tx.maxerror = strcmp(argv[0], "sync") == 0 ? 1000 : 16000000;
    tx.esterror = strcmp(argv[0], "sync") == 0 ? 100 : 16000000;
    int rc = adjtimex(&tx);
    if (rc < 0) { perror("adjtimex"); return 1; }
    printf("adjtimex rc=%d state=%s\n", rc, rc == TIME_ERROR ? "TIME_ERROR" : rc == TIME_OK ? "TIME_OK" : "other");
    return 0;
}

/* ---------------------------------------------------------------- capture */

enum { RATE = 16000, PERIOD = 160, MS = 16, W = RATE / 50, MAXSEG = RATE * 10 };

/* A run of sound is a run of 1 ms frames whose RMS is above the threshold; it ends after 12 ms
 * below. It may hold tones (the box's sine and square notes, several back to back in a chime)
 * and speech (espeak-ng's sentences): each is told apart and reported on its own line. */
struct segment {
    int active;
    int64_t first;          /* frame index of the first sample above the onset level */
    int64_t base;           /* frame index of samples[0] */
    int64_t last_loud;      /* last 1 ms frame above threshold (frame index of its end) */
    int16_t samples[MAXSEG];
    int count;
    double peak;
};

static double t0_estimate = 1e18;   /* CLOCK_MONOTONIC of frame 0, best (lowest) bound */
static int debug_windows = 0;       /* analyse --windows: one WINDOW line per 20 ms */

static double frame_time(int64_t frame) { return t0_estimate + (double)frame / RATE; }

/* Zero crossings of samples [from, to): their frequency, and how regular they are (the
 * coefficient of variation of the intervals between them). A synthesised tone, sine or
 * band-limited square, crosses zero at equal intervals (cv near 0); speech does not: its
 * formants and its noise put crossings anywhere in a pitch period. */
static double zc_stats(const int16_t *x, int from, int to, double *cv) {
    int crossings = 0;
    double first = -1, last = -1, prev = -1, sum = 0, sumsq = 0;
    for (int i = from + 1; i < to; i++) {
        if ((x[i - 1] < 0) != (x[i] < 0) && x[i - 1] != x[i]) {
            double pos = (i - 1) + (double)x[i - 1] / ((double)x[i - 1] - (double)x[i]);  /* sub-sample */
            if (first < 0) first = pos;
            if (prev >= 0) { sum += pos - prev; sumsq += (pos - prev) * (pos - prev); }
            prev = last = pos;
            crossings++;
        }
    }
    if (cv) *cv = 1;
    if (crossings < 3 || last <= first) return 0;
    int k = crossings - 1;
    double mean = sum / k, var = sumsq / k - mean * mean;
    if (cv) *cv = sqrt(var > 0 ? var : 0) / mean;
    return k / 2.0 / ((last - first) / RATE);
}

/* Exact enough for pure and square tones. */
static double zc_frequency(const int16_t *x, int from, int to) { return zc_stats(x, from, to, NULL); }

/* One note: samples [from, to) of the segment. */
static void report_note(struct segment *s, int from, int to) {
    if (to - from < 8 * MS) return;   /* shorter than 8 ms: a click, not a tone */
    /* A 20 ms window that straddles two notes of a chime is the join, not a note. */
    if ((from > 0 || to < s->count) && to - from < 30 * MS) return;
    int a = from + (to - from) / 6, b = to - (to - from) / 6;   /* fades excluded */
    double hz = zc_frequency(s->samples, a, b);
    double sumsq = 0, peak = 0;
    for (int i = from; i < to; i++) {
        if (abs(s->samples[i]) > peak) peak = abs(s->samples[i]);
        if (i >= a && i < b) sumsq += (double)s->samples[i] * s->samples[i];
    }
    double rms = sqrt(sumsq / (b - a)) / 32767.0;
    peak /= 32767.0;
    /* A sine's RMS is 0.71 of its peak; a band-limited square's is 0.8 or more. */
    const char *wave = rms / (peak > 0 ? peak : 1) > 0.78 ? "square" : "sine";
    double on = from == 0 ? frame_time(s->first) : frame_time(s->base + from);
    double off = frame_time(s->base + to);
    printf("TONE on=%.6f off=%.6f ms=%.1f hz=%.1f peak=%.3f rms=%.3f wave=%s\n", on, off, (off - on) * 1000, hz, peak, rms, wave);
    fflush(stdout);
}

/* Tones in samples [from, to): a run of sound may hold several notes back to back (the success
 * chime): split it where the pitch of consecutive 20 ms windows changes by more than 6 %. */
static void report_tones(struct segment *s, int from, int to) {
    int note_start = from;
    double note_hz = 0;
    for (int w = from; w + W <= to; w += W) {
        double hz = zc_frequency(s->samples, w, w + W);
        if (hz <= 0) continue;
        if (note_hz > 0 && fabs(hz - note_hz) / note_hz > 0.06) {
            report_note(s, note_start, w);
            note_start = w;
        }
        if (note_start == w || note_hz <= 0) note_hz = hz;
    }
    report_note(s, note_start, to);
}

static void report_speech(struct segment *s, int from, int to) {
    double sumsq = 0, peak = 0;
    for (int i = from; i < to; i++) {
        if (abs(s->samples[i]) > peak) peak = abs(s->samples[i]);
        sumsq += (double)s->samples[i] * s->samples[i];
    }
    double on = from == 0 ? frame_time(s->first) : frame_time(s->base + from);
    double off = frame_time(s->base + to);
    printf("SPEECH on=%.6f off=%.6f ms=%.1f peak=%.3f rms=%.3f\n", on, off, (off - on) * 1000, peak / 32767.0,
           sqrt(sumsq / (to - from)) / 32767.0);
    fflush(stdout);
}

enum { TONAL_CV = 10 };            /* percent: a window whose crossings vary more is not a tone */
enum { SPEECH_MIN_WINDOWS = 4 };   /* 80 ms of irregular windows between two tones: speech, not a join */
enum { VOWEL_MAX_WINDOWS = 10 };   /* a regular stretch of up to 200 ms inside speech is a vowel */

static int is_tonal(const int16_t *x, int from, int to) {
    double cv, hz = zc_stats(x, from, to, &cv);
    return hz > 0 && cv * 100 < TONAL_CV;
}

/* Splits a run of sound into speech and tones. The box's tones cross zero at equal intervals
 * (cv 0.000 measured); espeak-ng's speech at cv 0.3 or more, its fricatives included. A run
 * of irregular 20 ms windows is speech when it is long (SPEECH_MIN_WINDOWS) or touches either
 * end of the run of sound; a short one between two tones is the join of a chime's notes. */
static void report_segment(struct segment *s) {
    enum { MAXW = MAXSEG / W + 1 };
    static char tonal[MAXW], speech[MAXW];
    int nw = s->count / W;
    if (s->count < 8 * MS) return;   /* shorter than 8 ms: a click */
    if (nw == 0) {   /* under 20 ms: one window */
        if (is_tonal(s->samples, 0, s->count)) report_tones(s, 0, s->count);
        else if (s->count > 0) report_speech(s, 0, s->count);
        return;
    }
    for (int w = 0; w < nw; w++) {
        tonal[w] = is_tonal(s->samples, w * W, (w + 1) * W);
        if (debug_windows) {
            double cv, hz = zc_stats(s->samples, w * W, (w + 1) * W, &cv);
            printf("WINDOW t=%.3f hz=%.1f cv=%.3f %s\n", frame_time(s->base + w * W), hz, cv, tonal[w] ? "tone" : "-");
        }
    }
    memset(speech, 0, (size_t)nw);
    for (int w = 0; w < nw;) {
        int e = w;
        while (e < nw && !tonal[e]) e++;
        if (e > w && (e - w >= SPEECH_MIN_WINDOWS || w == 0 || e == nw)) memset(speech + w, 1, (size_t)(e - w));
        w = e > w ? e : w + 1;
    }
    for (int w = 0; w < nw;) {
        if (speech[w]) { w++; continue; }
        int e = w;
        while (e < nw && !speech[e]) e++;
        if (w > 0 && e < nw && e - w <= VOWEL_MAX_WINDOWS) memset(speech + w, 1, (size_t)(e - w));
        w = e;
    }
    /* Report in order: each speech run as one SPEECH line, the rest as tones. */
    int start = 0;
    for (int w = 1; w <= nw; w++) {
        if (w < nw && speech[w] == speech[start]) continue;
        int from = start * W, to = w == nw ? s->count : w * W;
        if (speech[start]) report_speech(s, from, to);
        else report_tones(s, from, to);
        start = w;
    }
}

/* The detector fed from a capture or a file: 1 ms RMS frames, segments, reports. */
struct detector {
    struct segment seg;
    int64_t last_end;       /* frame index where the last run of sound ended (-1: none yet) */
    int quiet_reported;
    int64_t frame_in_ms;
    double ms_sumsq;
    int16_t ms_buf[MS];
};

enum { QUIET_MS = 700 };   /* "QUIET since=T" once this long has passed without sound: a sentence ended */

static const double THRESHOLD = 0.02 * 32767;     /* 1 ms RMS to count as sound: -34 dBFS */
static const double ONSET_LEVEL = 0.01 * 32767;   /* the onset is the first sample above this */

/* Feeds n samples whose first is frame `frames` of the epoch. */
static void detector_feed(struct detector *d, const int16_t *buf, int64_t n, int64_t frames) {
    struct segment *seg = &d->seg;
    for (int64_t i = 0; i < n; i++) {
        int16_t v = buf[i];
        d->ms_buf[d->frame_in_ms] = v;
        d->ms_sumsq += (double)v * v;
        d->frame_in_ms++;
        if (d->frame_in_ms < MS) continue;
        int64_t ms_start = frames + i + 1 - MS;
        double rms = sqrt(d->ms_sumsq / MS);
        if (rms >= THRESHOLD) {
            if (!seg->active) {
                memset(seg, 0, offsetof(struct segment, samples));
                seg->active = 1;
                d->quiet_reported = 0;
                seg->count = 0;     /* count and peak follow samples[], past the memset */
                seg->peak = 0;
                seg->first = ms_start;
                seg->base = ms_start;
                /* back up to the first sample above the onset level within this ms */
                for (int k = 0; k < MS; k++) {
                    if (abs(d->ms_buf[k]) >= ONSET_LEVEL) { seg->first = ms_start + k; break; }
                }
            }
            seg->last_loud = ms_start + MS;
        }
        if (seg->active) {
            for (int k = 0; k < MS && seg->count < MAXSEG; k++) {
                seg->samples[seg->count++] = d->ms_buf[k];
                if (abs(d->ms_buf[k]) > seg->peak) seg->peak = abs(d->ms_buf[k]);
            }
            if (ms_start + MS - seg->last_loud >= 12 * MS) {
                seg->count -= (int)(ms_start + MS - seg->last_loud);
                if (seg->count < 0) seg->count = 0;
                report_segment(seg);
                seg->active = 0;
                d->last_end = seg->last_loud;
            }
        } else if (d->last_end >= 0 && !d->quiet_reported && ms_start + MS - d->last_end >= QUIET_MS * MS) {
            printf("QUIET since=%.6f\n", frame_time(d->last_end));
            fflush(stdout);
            d->quiet_reported = 1;
        }
        d->frame_in_ms = 0;
        d->ms_sumsq = 0;
    }
}

/* Ends the run of sound in progress (an overrun, or the end of the capture). */
static void detector_flush(struct detector *d) {
    if (d->seg.active) { report_segment(&d->seg); d->seg.active = 0; }
    d->last_end = -1;   /* an overrun's gap is not silence heard */
    d->frame_in_ms = 0;
    d->ms_sumsq = 0;
}

static void write_wav_header(FILE *f, uint32_t frames) {
    uint32_t data = frames * 2, riff = 36 + data, fmt_len = 16, rate = RATE, byte_rate = RATE * 2;
    uint16_t pcm = 1, ch = 1, align = 2, bits = 16;
    fseek(f, 0, SEEK_SET);
    fwrite("RIFF", 1, 4, f); fwrite(&riff, 4, 1, f); fwrite("WAVEfmt ", 1, 8, f);
    fwrite(&fmt_len, 4, 1, f); fwrite(&pcm, 2, 1, f); fwrite(&ch, 2, 1, f); fwrite(&rate, 4, 1, f);
    fwrite(&byte_rate, 4, 1, f); fwrite(&align, 2, 1, f); fwrite(&bits, 2, 1, f);
    fwrite("data", 1, 4, f); fwrite(&data, 4, 1, f);
}

static int open_capture(const char *device, snd_pcm_t **out) {
    snd_pcm_t *pcm;
    int rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0);
    if (rc < 0) { fprintf(stderr, "capture: open %s: %s\n", device, snd_strerror(rc)); return rc; }
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_hw_params_any(pcm, hw);
    snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
    snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE);
    snd_pcm_hw_params_set_channels(pcm, hw, 1);
    unsigned rate = RATE;
    snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, NULL);
    snd_pcm_uframes_t period = PERIOD, buffer = RATE; /* 10 ms periods, 1 s of slack */
    snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL);
    snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer);
    rc = snd_pcm_hw_params(pcm, hw);
    if (rc < 0 || rate != RATE) {
        fprintf(stderr, "capture: hw params on %s: %s (rate %u)\n", device, snd_strerror(rc), rate);
        snd_pcm_close(pcm);
        return rc < 0 ? rc : -EINVAL;
    }
    *out = pcm;
    return 0;
}

static int cmd_capture(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: capture DEVICE SECONDS [WAV]\n"); return 2; }
    const char *device = argv[0];
    double seconds = atof(argv[1]);
    FILE *wav = argc > 2 ? fopen(argv[2], "wb") : NULL;
    if (wav) write_wav_header(wav, 0);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    setvbuf(stdout, NULL, _IOLBF, 0);

    snd_pcm_t *pcm;
    if (open_capture(device, &pcm) < 0) return 1;
    snd_pcm_start(pcm);
    double started = mono_now();
    printf("CAPTURE start t=%.6f device=%s\n", started, device);

    static struct detector det = {.last_end = -1};
    int16_t buf[PERIOD * 4];
    int64_t frames = 0;        /* frames read in this epoch */
    int64_t total = 0;         /* frames read overall (for the WAV) */
    int overruns = 0;

    while (!stop_requested && mono_now() - started < seconds) {
        snd_pcm_sframes_t n = snd_pcm_readi(pcm, buf, PERIOD);
        if (n == -EPIPE || n == -ESTRPIPE) {
            overruns++;
            detector_flush(&det);
            snd_pcm_prepare(pcm);
            snd_pcm_start(pcm);
            frames = 0;
            t0_estimate = 1e18;
            continue;
        }
        if (n == -EAGAIN || n == -EINTR) continue;
        if (n < 0) { fprintf(stderr, "capture: read: %s\n", snd_strerror((int)n)); break; }
        double now = mono_now();
        snd_pcm_sframes_t avail = snd_pcm_avail(pcm);
        if (avail < 0) avail = 0;
        /* The newest captured frame (frames + n + avail) exists by `now`: an upper bound on t0. */
        double bound = now - (double)(frames + n + avail) / RATE;
        if (bound < t0_estimate) t0_estimate = bound;
        if (wav) fwrite(buf, 2, (size_t)n, wav);
        detector_feed(&det, buf, n, frames);
        frames += n;
        total += n;
    }
    detector_flush(&det);
    printf("CAPTURE end t=%.6f frames=%lld seconds=%.3f overruns=%d t0=%.6f\n", mono_now(), (long long)total,
           (double)total / RATE, overruns, t0_estimate);
    snd_pcm_close(pcm);
    if (wav) { write_wav_header(wav, (uint32_t)total); fclose(wav); }
    return 0;
}

/* The capture's detector run over a 16 kHz mono S16 WAV file (times from its start), so the
 * detector can be checked on the host against the box's own WAV sink. */
static int cmd_analyse(int argc, char **argv) {
    if (argc < 1) { fprintf(stderr, "usage: analyse WAV [--windows]\n"); return 2; }
    debug_windows = argc > 1 && strcmp(argv[1], "--windows") == 0;
    FILE *f = fopen(argv[0], "rb");
    if (!f) { fprintf(stderr, "analyse: %s: %s\n", argv[0], strerror(errno)); return 1; }
    char id[4];
    uint32_t len;
    uint16_t fmt[8] = {0};
    if (fseek(f, 12, SEEK_SET) != 0) { fclose(f); return 1; }
    for (;;) {   /* find the "data" chunk, checking "fmt " on the way */
        if (fread(id, 1, 4, f) != 4 || fread(&len, 4, 1, f) != 1) {
            fprintf(stderr, "analyse: %s: no data chunk\n", argv[0]);
            fclose(f);
            return 1;
        }
        if (memcmp(id, "data", 4) == 0) break;
        if (memcmp(id, "fmt ", 4) == 0 && len >= 16) {
            if (fread(fmt, 2, 8, f) != 8) { fclose(f); return 1; }
            uint32_t rate = fmt[2] | (uint32_t)fmt[3] << 16;
            if (fmt[0] != 1 || fmt[1] != 1 || rate != RATE || fmt[7] != 16) {
                fprintf(stderr, "analyse: %s: not 16 kHz mono 16-bit PCM\n", argv[0]);
                fclose(f);
                return 1;
            }
            len -= 16;
        }
        fseek(f, len + (len & 1), SEEK_CUR);
    }
    t0_estimate = 0;
    static struct detector det = {.last_end = -1};
    int16_t buf[4096];
    int64_t frames = 0;
    size_t n;
    while ((n = fread(buf, 2, 4096, f)) > 0) {
        detector_feed(&det, buf, (int64_t)n, frames);
        frames += (int64_t)n;
    }
    detector_flush(&det);
    fclose(f);
    printf("ANALYSE frames=%lld seconds=%.3f\n", (long long)frames, (double)frames / RATE);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: vbox-helper press|capture|analyse|led|uled|say|tty|adjtimex ...\n");
        return 2;
    }
    const char *cmd = argv[1];
    argc -= 2;
    argv += 2;
    if (strcmp(cmd, "press") == 0) return cmd_press(argc, argv);
    if (strcmp(cmd, "capture") == 0) return cmd_capture(argc, argv);
    if (strcmp(cmd, "analyse") == 0) return cmd_analyse(argc, argv);
    if (strcmp(cmd, "led") == 0) return cmd_led(argc, argv);
    if (strcmp(cmd, "uled") == 0) return cmd_uled(argc, argv);
    if (strcmp(cmd, "say") == 0) return cmd_say(argc, argv);
    if (strcmp(cmd, "tty") == 0) return printf("%s\n", results_tty()) < 0;
    if (strcmp(cmd, "adjtimex") == 0) return cmd_adjtimex(argc, argv);
    if (strcmp(cmd, "clocks") == 0) {
        /* CLOCK_REALTIME and CLOCK_MONOTONIC read back to back (the tighter of three tries). */
        double best_span = 1e9, real = 0, mono = 0;
        for (int i = 0; i < 3; i++) {
            struct timespec a, r, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            clock_gettime(CLOCK_REALTIME, &r);
            clock_gettime(CLOCK_MONOTONIC, &b);
            double ma = a.tv_sec + a.tv_nsec / 1e9, mb = b.tv_sec + b.tv_nsec / 1e9;
            if (mb - ma < best_span) { best_span = mb - ma; mono = (ma + mb) / 2; real = r.tv_sec + r.tv_nsec / 1e9; }
        }
        printf("CLOCKS real=%.6f mono=%.6f\n", real, mono);
        return 0;
    }
    fprintf(stderr, "vbox-helper: unknown command %s\n", cmd);
    return 2;
}
