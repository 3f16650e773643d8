// What Swift cannot call directly in GTK and GObject: `g_signal_connect` (a macro) and the
// variadic `g_signal_emit_by_name`, used to replay scripted input through the very signal
// handlers real input reaches.
#ifndef ROWKIT_GTK_H
#define ROWKIT_GTK_H

#include <gtk/gtk.h>

/// Connects `handler` to `signal` on `instance` with `data` as its user data.
gulong rk_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data);

/// Emits GtkEventControllerScroll::scroll (dx, dy) and returns whether it was handled.
gboolean rk_emit_scroll(GtkEventController *controller, double dx, double dy);

/// Emits GtkEventControllerScroll::decelerate (the velocity at the end of a touchpad fling).
void rk_emit_decelerate(GtkEventController *controller, double vx, double vy);

/// Emits GtkGestureClick::pressed or ::released (`released` false: pressed).
void rk_emit_click(GtkGesture *gesture, gboolean released, int n_press, double x, double y);

/// Emits GtkEventControllerKey::key-pressed and returns whether it was handled.
gboolean rk_emit_key_pressed(GtkEventController *controller, guint keyval, guint keycode, GdkModifierType state);

/// Sets the calling thread's nice value (Linux: per thread, through its thread id, which only
/// the variadic `syscall` gives). Returns 0 or -1 (errno set).
int rk_set_thread_niceness(int niceness);

#endif
