// libmosquitto's functions that BoxMQTT calls, each loading libmosquitto.so.1 on first use
// (dlopen) instead of being linked: boxd, boxctl and boxd-mqtt are one program (#34), and only
// boxd-mqtt publishes. Linked, the library and OpenSSL's would be mapped and relocated in boxd
// and at every `boxctl status`. A function called without the library fails as the library
// would: an error code, NULL, or nothing.
#include "CBoxSys.h"
#include <pthread.h>
// Hidden, from here: the program exports its symbols (--export-dynamic), and the library's own
// calls of its exported functions must reach the library, not these. (pthread_once, above, is libc's.)
#pragma GCC visibility push(hidden)
#include "CMosquitto.h"

#define FUNCTIONS(X) X(mosquitto_connect) X(mosquitto_connect_v5_callback_set) X(mosquitto_destroy) \
    X(mosquitto_disconnect) X(mosquitto_disconnect_callback_set) X(mosquitto_int_option) X(mosquitto_lib_init) \
    X(mosquitto_loop_misc) X(mosquitto_loop_read) X(mosquitto_loop_write) X(mosquitto_message_callback_set) \
    X(mosquitto_new) X(mosquitto_publish) X(mosquitto_publish_v5_callback_set) X(mosquitto_reason_string) \
    X(mosquitto_reconnect) X(mosquitto_socket) X(mosquitto_strerror) X(mosquitto_subscribe) \
    X(mosquitto_threaded_set) X(mosquitto_tls_set) X(mosquitto_user_data_set) X(mosquitto_username_pw_set) \
    X(mosquitto_want_write) X(mosquitto_will_set)
BOX_LIBRARY("libmosquitto.so.1", FUNCTIONS)
const char *box_mosquitto_unavailable(void) { return loaded() ? NULL : failure; }

int mosquitto_lib_init(void) { return BOX_CALL(mosquitto_lib_init, MOSQ_ERR_NOT_SUPPORTED); }
struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) { return BOX_CALL(mosquitto_new, NULL, id, clean_session, obj); }
void mosquitto_destroy(struct mosquitto *mosq) { if (loaded()) lib.fn.mosquitto_destroy(mosq); }
int mosquitto_connect(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return BOX_CALL(mosquitto_connect, MOSQ_ERR_NOT_SUPPORTED, mosq, host, port, keepalive);
}
int mosquitto_reconnect(struct mosquitto *mosq) { return BOX_CALL(mosquitto_reconnect, MOSQ_ERR_NOT_SUPPORTED, mosq); }
int mosquitto_disconnect(struct mosquitto *mosq) { return BOX_CALL(mosquitto_disconnect, MOSQ_ERR_NOT_SUPPORTED, mosq); }
void mosquitto_connect_v5_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int, int, const mosquitto_property *)) {
    if (loaded()) lib.fn.mosquitto_connect_v5_callback_set(mosq, on_connect);
}
void mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    if (loaded()) lib.fn.mosquitto_disconnect_callback_set(mosq, on_disconnect);
}
void mosquitto_message_callback_set(struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    if (loaded()) lib.fn.mosquitto_message_callback_set(mosq, on_message);
}
void mosquitto_publish_v5_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int, int, const mosquitto_property *)) {
    if (loaded()) lib.fn.mosquitto_publish_v5_callback_set(mosq, on_publish);
}
int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return BOX_CALL(mosquitto_int_option, MOSQ_ERR_NOT_SUPPORTED, mosq, option, value);
}
int mosquitto_loop_misc(struct mosquitto *mosq) { return BOX_CALL(mosquitto_loop_misc, MOSQ_ERR_NOT_SUPPORTED, mosq); }
int mosquitto_loop_read(struct mosquitto *mosq, int max_packets) { return BOX_CALL(mosquitto_loop_read, MOSQ_ERR_NOT_SUPPORTED, mosq, max_packets); }
int mosquitto_loop_write(struct mosquitto *mosq, int max_packets) { return BOX_CALL(mosquitto_loop_write, MOSQ_ERR_NOT_SUPPORTED, mosq, max_packets); }
int mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return BOX_CALL(mosquitto_publish, MOSQ_ERR_NOT_SUPPORTED, mosq, mid, topic, payloadlen, payload, qos, retain);
}
const char *mosquitto_reason_string(int reason_code) {
    return BOX_CALL(mosquitto_reason_string, "libmosquitto is not loaded", reason_code);
}
const char *mosquitto_strerror(int mosq_errno) { return BOX_CALL(mosquitto_strerror, "libmosquitto is not loaded", mosq_errno); }
int mosquitto_socket(struct mosquitto *mosq) { return BOX_CALL(mosquitto_socket, -1, mosq); }
int mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return BOX_CALL(mosquitto_subscribe, MOSQ_ERR_NOT_SUPPORTED, mosq, mid, sub, qos);
}
int mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) { return BOX_CALL(mosquitto_threaded_set, MOSQ_ERR_NOT_SUPPORTED, mosq, threaded); }
int mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
                      int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return BOX_CALL(mosquitto_tls_set, MOSQ_ERR_NOT_SUPPORTED, mosq, cafile, capath, certfile, keyfile, pw_callback);
}
void mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { if (loaded()) lib.fn.mosquitto_user_data_set(mosq, obj); }
int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return BOX_CALL(mosquitto_username_pw_set, MOSQ_ERR_NOT_SUPPORTED, mosq, username, password);
}
bool mosquitto_want_write(struct mosquitto *mosq) { return BOX_CALL(mosquitto_want_write, false, mosq); }
int mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return BOX_CALL(mosquitto_will_set, MOSQ_ERR_NOT_SUPPORTED, mosq, topic, payloadlen, payload, qos, retain);
}

#pragma GCC visibility pop
