#!/bin/sh
# Runs a remote-device test program under mpirun, as one process whose
# Mosaic starts two servers (docs/remote.md): run_under_mpi.sh program case.
# With MOSAIC_TEST_LAUNCHED=1 the launcher starts them beside the program
# instead (mpirun -n 1 program : -n 2 mosaic-server), MOSAIC_REMOTE_SERVER
# naming the server.
# Exits 77 (ctest: skipped) where Open MPI's mpirun is not installed.
if ! command -v mpirun >/dev/null 2>&1; then
    echo "skipped: mpirun not found (Debian: openmpi-bin); remote devices need MPI"
    exit 77
fi
# root may run Open MPI only when it says so (CI containers run as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# mpirun's hwloc need not list OpenCL devices (it would load Mosaic)
export HWLOC_COMPONENTS=-opencl
export MOSAIC_REMOTE=mpi MOSAIC_REMOTE_SERVERS=${MOSAIC_REMOTE_SERVERS:-2}
# what the program and the servers it starts must see (mpirun passes on those named)
forward=""
for v in MOSAIC_SPIN_US MOSAIC_REMOTE_TIMEOUT MOSAIC_TEST_LAUNCHED MOSAIC_REMOTE MOSAIC_REMOTE_SERVERS MOSAIC_REMOTE_SERVER MOSAIC_REMOTE_TRANSPORT OCL_ICD_VENDORS MOSAIC_CACHE_DIR MOSAIC_GPU MOSAIC_NUM_THREADS \
         MOSAIC_DEBUG LSAN_OPTIONS HWLOC_COMPONENTS; do
    if env | grep -q "^$v="; then forward="$forward -x $v"; fi
done
# one process on this machine; --oversubscribe: servers beyond its cores;
# MOSAIC_TEST_MPIRUN_FLAGS: more of mpirun's options (--enable-recovery...)
if [ "${MOSAIC_TEST_LAUNCHED:-0}" = 1 ]; then
    exec mpirun --oversubscribe $MOSAIC_TEST_MPIRUN_FLAGS $forward -n 1 "$@" : \
        -n "$MOSAIC_REMOTE_SERVERS" "$MOSAIC_REMOTE_SERVER"
fi
exec mpirun -n 1 --oversubscribe $MOSAIC_TEST_MPIRUN_FLAGS $forward "$@"
