#include "rowkit_gtk.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

gulong rk_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

gboolean rk_emit_scroll(GtkEventController *controller, double dx, double dy) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "scroll", dx, dy, &handled);
    return handled;
}

void rk_emit_decelerate(GtkEventController *controller, double vx, double vy) {
    g_signal_emit_by_name(controller, "decelerate", vx, vy);
}

void rk_emit_click(GtkGesture *gesture, gboolean released, int n_press, double x, double y) {
    g_signal_emit_by_name(gesture, released ? "released" : "pressed", n_press, x, y);
}

gboolean rk_emit_key_pressed(GtkEventController *controller, guint keyval, guint keycode, GdkModifierType state) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "key-pressed", keyval, keycode, state, &handled);
    return handled;
}

int rk_set_thread_niceness(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
}
