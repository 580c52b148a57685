/* Specialization constants: clang-15 and llvm-spirv-15 turn calls of
 * __spirv_SpecConstant(id, default) into OpSpecConstant* with that SpecId. */
bool spec_bool(int id, bool def) __asm__("_Z20__spirv_SpecConstantib");
char spec_char(int id, char def) __asm__("_Z20__spirv_SpecConstantic");
short spec_short(int id, short def) __asm__("_Z20__spirv_SpecConstantis");
int spec_int(int id, int def) __asm__("_Z20__spirv_SpecConstantii");
long spec_long(int id, long def) __asm__("_Z20__spirv_SpecConstantil");
float spec_float(int id, float def) __asm__("_Z20__spirv_SpecConstantif");
double spec_double(int id, double def) __asm__("_Z20__spirv_SpecConstantid");

kernel void spec(global long *l, global double *d)
{
    l[0] = spec_bool(1, false) ? 11 : 22;
    l[1] = spec_char(2, (char)-3);
    l[2] = spec_short(3, 300);
    l[3] = spec_int(4, 70000);
    l[4] = spec_long(5, 5000000000L);
    d[0] = spec_float(6, 1.25f);
    d[1] = spec_double(7, 2.5);
}
