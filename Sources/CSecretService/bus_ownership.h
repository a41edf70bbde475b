#ifndef BUS_OWNERSHIP_H
#define BUS_OWNERSHIP_H
/* Whose the session bus and the Secret Service on it are (bus_ownership.c); the connect
   functions of csecretservice.c call these before anything is sent to the service. */
#include "csecretservice.h"

/* TRUE when the process listening on the bus's socket (SO_PEERCRED) is the user (geteuid)
   or root; else FALSE with CSECRETSERVICE_ERROR_FOREIGN_BUS set, which says where the bus
   is and whose it is. Sends nothing. */
gboolean csecretservice_check_bus(GDBusConnection *bus, GError **error);
/* The session bus, once its listener was found to be the user or root (csecretservice_check_bus)
   before anything was sent to it, and again on the connection GLib made; NULL with the error
   otherwise (CSECRETSERVICE_ERROR_FOREIGN_BUS, or GLib's when there is no bus). */
GDBusConnection *csecretservice_session_bus(GCancellable *cancellable, GError **error);
/* TRUE when the unique name `owner` (which owns `name`) is a connection of the user's
   (GetConnectionUnixUser); else FALSE with CSECRETSERVICE_ERROR_FOREIGN_SERVICE set (or
   the call's own error when `cancellable` gave up on it). Only for a bus that passed
   csecretservice_check_bus: the bus's answer is believed. */
gboolean csecretservice_check_owner(GDBusConnection *bus, const char *name, const char *owner, int timeout_ms,
                                    GCancellable *cancellable, GError **error);
#endif
