/*
 * nosync.so: the power-cut test's control (Tests/VirtualBox). Preloaded into boxd with
 * LD_PRELOAD, it turns fsync(2), fdatasync(2) and friends into no-ops, so SQLite's commit
 * returns while the data is still only in the guest's page cache: the same as running the
 * night log with synchronous=OFF. A power cut must then lose acknowledged doses; if the rig
 * still passes, it cannot see durability bugs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
int syncfs(int fd) { (void)fd; return 0; }
void sync(void) {}
int sync_file_range(int fd, off_t offset, off_t nbytes, unsigned int flags) {
    (void)fd; (void)offset; (void)nbytes; (void)flags;
    return 0;
}
