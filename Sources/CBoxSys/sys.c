// Small Linux calls that Swift's Glibc module does not import.
#include "CBoxSys.h"
#include <sys/timex.h>

int box_clock_synchronized(void) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    return state >= 0 && state != TIME_ERROR;
}
