/* Kernels that call C library functions of the host by name (test_spirv's
 * host_calls): each module must fail to build. */
int system(constant char *);
void exit(int);
int getpid(void);

kernel void run_shell(global int *o) { o[0] = system("mkdir /tmp/mosaic-spirv-host-call"); }
kernel void leave(global int *o) { exit(42); }
kernel void pid(global int *o) { o[0] = getpid(); }
