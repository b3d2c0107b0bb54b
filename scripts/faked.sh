#!/bin/sh
# Cargo's runner under `faketime … make test` (see the Makefile): runs a program cargo built with
# the libfaketime preload that cargo itself ran without.
LD_PRELOAD="$SOCIO_FAKED_PRELOAD" exec "$@"
