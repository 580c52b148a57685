/* The GPU's maths built-ins behind plain names for the host
 * (test_gpu_builtin_maths.c, gpu_maths_host.sh): t_F_f, t_F_d and t_F_h
 * (half as its bits) call F as a kernel does, so linked with Mosaic's GPU
 * built-ins and libclc they run what the GPU runs. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define H(x) as_half(x)
#define U(F)                                                                                        \
    float t_##F##_f(float x) { return F(x); }                                                      \
    double t_##F##_d(double x) { return F(x); }                                                    \
    ushort t_##F##_h(ushort x) { return as_ushort(F(H(x))); }
#define B(F)                                                                                        \
    float t_##F##_f(float x, float y) { return F(x, y); }                                          \
    double t_##F##_d(double x, double y) { return F(x, y); }                                       \
    ushort t_##F##_h(ushort x, ushort y) { return as_ushort(F(H(x), H(y))); }
#define BI(F)                                                                                       \
    float t_##F##_f(float x, int n) { return F(x, n); }                                            \
    double t_##F##_d(double x, int n) { return F(x, n); }                                          \
    ushort t_##F##_h(ushort x, int n) { return as_ushort(F(H(x), n)); }
#define T(F)                                                                                        \
    float t_##F##_f(float x, float y, float z) { return F(x, y, z); }                              \
    double t_##F##_d(double x, double y, double z) { return F(x, y, z); }                          \
    ushort t_##F##_h(ushort x, ushort y, ushort z) { return as_ushort(F(H(x), H(y), H(z))); }
/* F(x, &out): the out value of the same type */
#define OF(F)                                                                                       \
    float t_##F##_f(float x, __private float *o) { float t, r = F(x, &t); *o = t; return r; }      \
    double t_##F##_d(double x, __private double *o) { double t, r = F(x, &t); *o = t; return r; }  \
    ushort t_##F##_h(ushort x, __private ushort *o) { half t, r = F(H(x), &t); *o = as_ushort(t); return as_ushort(r); }
/* F(x, &int) */
#define OI(F)                                                                                       \
    float t_##F##_f(float x, __private int *o) { int t; float r = F(x, &t); *o = t; return r; }    \
    double t_##F##_d(double x, __private int *o) { int t; double r = F(x, &t); *o = t; return r; } \
    ushort t_##F##_h(ushort x, __private int *o) { int t; half r = F(H(x), &t); *o = t; return as_ushort(r); }

U(acos) U(acosh) U(acospi) U(asin) U(asinh) U(asinpi) U(atan) U(atanh) U(atanpi) U(cbrt) U(ceil) U(cos)
U(cosh) U(cospi) U(erfc) U(erf) U(exp) U(exp2) U(exp10) U(expm1) U(fabs) U(floor) U(lgamma) U(log)
U(log2) U(log10) U(log1p) U(logb) U(rint) U(round) U(rsqrt) U(sin) U(sinh) U(sinpi) U(sqrt) U(tan)
U(tanh) U(tanpi) U(tgamma) U(trunc)
B(atan2) B(atan2pi) B(copysign) B(fdim) B(fmax) B(fmin) B(fmod) B(hypot) B(maxmag) B(minmag)
B(nextafter) B(pow) B(powr) B(remainder)
BI(ldexp) BI(pown) BI(rootn)
T(fma) T(mad)
OF(fract) OF(modf) OF(sincos)
OI(frexp) OI(lgamma_r)
int t_ilogb_f(float x) { return ilogb(x); }
int t_ilogb_d(double x) { return ilogb(x); }
int t_ilogb_h(ushort x) { return ilogb(H(x)); }
float t_remquo_f(float x, float y, __private int *q) { int t; float r = remquo(x, y, &t); *q = t; return r; }
double t_remquo_d(double x, double y, __private int *q) { int t; double r = remquo(x, y, &t); *q = t; return r; }
ushort t_remquo_h(ushort x, ushort y, __private int *q)
{
    int t;
    half r = remquo(H(x), H(y), &t);
    *q = t;
    return as_ushort(r);
}
