/*
 * The host program of seed 000 (a dot product in one work-group, with a
 * __local buffer and a barrier), completed into a whole program.
 *
 * The seed shows the part from clCreateProgramWithSource to the end; the
 * rest (platform, device, context, queue, buffers, the two events evt1 and
 * evt2 its kernel launch waits for, and the clean-up at FINISH) is written
 * here.  The two events come from the non-blocking writes of the inputs.
 *
 *   usage: seed000_dot kernel_dot.cl
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* room for the build options the program later writes into this buffer */
    char *text = calloc((size_t)size + 256, 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(f);
    *length = (size_t)size;
    return text;
}

int main(int argc, char **argv)
{
    const char *kernel_path = argc > 1 ? argv[1] : "kernel_dot.cl";
    cl_int ret;
    cl_platform_id platform_id = NULL;
    cl_device_id device_id = NULL;
    cl_context context = NULL;
    cl_command_queue command_queue = NULL;
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    cl_mem src1MemObj = NULL, src2MemObj = NULL, dstMemObj = NULL;
    cl_event evt1 = NULL, evt2 = NULL;
    int *pHostBuffer = NULL, *pDeviceBuffer = NULL;
    size_t kernelLength = 0;
    int status = EXIT_FAILURE;

    char *kernelSource = read_file(kernel_path, &kernelLength);
    if (!kernelSource) {
        fprintf(stderr, "cannot read %s\n", kernel_path);
        return EXIT_FAILURE;
    }
    ret = clGetPlatformIDs(1, &platform_id, NULL);
    if (ret == CL_SUCCESS)
        ret = clGetDeviceIDs(platform_id, CL_DEVICE_TYPE_DEFAULT, 1, &device_id, NULL);
    if (ret != CL_SUCCESS) {
        printf("No OpenCL device (%d)\n", ret);
        goto FINISH;
    }
    context = clCreateContext(NULL, 1, &device_id, NULL, NULL, &ret);
    if (context)
        command_queue = clCreateCommandQueueWithProperties(context, device_id, NULL, &ret);
    if (!command_queue) {
        printf("Cannot create a context and queue (%d)\n", ret);
        goto FINISH;
    }

    /* The inputs: both vectors hold 0, 1, 2, ... so the dot product is a sum of squares. */
    const int maxItems = 1024;
    pHostBuffer = malloc(maxItems * sizeof(int));
    for (int i = 0; i < maxItems; i++)
        pHostBuffer[i] = i % 100;
    src1MemObj = clCreateBuffer(context, CL_MEM_READ_ONLY, maxItems * sizeof(int), NULL, &ret);
    src2MemObj = clCreateBuffer(context, CL_MEM_READ_ONLY, maxItems * sizeof(int), NULL, &ret);
    dstMemObj = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof(int), NULL, &ret);
    if (!src1MemObj || !src2MemObj || !dstMemObj) {
        puts("Cannot create buffers");
        goto FINISH;
    }
    ret = clEnqueueWriteBuffer(command_queue, src1MemObj, CL_FALSE, 0, maxItems * sizeof(int), pHostBuffer, 0,
                               NULL, &evt1);
    ret |= clEnqueueWriteBuffer(command_queue, src2MemObj, CL_FALSE, 0, maxItems * sizeof(int), pHostBuffer, 0,
                                NULL, &evt2);
    if (ret != CL_SUCCESS) {
        puts("Cannot write the inputs");
        goto FINISH;
    }

    /* From here on, the seed's own steps. */
    program = clCreateProgramWithSource(context, 1, (const char **)&kernelSource, (const size_t *)&kernelLength, &ret);
    const int nWorkItems = 128;
    /* the build options define the number of work-items for the kernel */
    sprintf(kernelSource, "-D TOTAL_NUMBER_OF_WORKITEMS=%d", nWorkItems);
    ret = clBuildProgram(program, 1, &device_id, kernelSource, NULL, NULL);
    if (ret != CL_SUCCESS) {
        size_t len;
        char buffer[8 * 1024];
        printf("Error: Failed to build program executable!\n");
        clGetProgramBuildInfo(program, device_id, CL_PROGRAM_BUILD_LOG, sizeof(buffer), buffer, &len);
        printf("%s\n", buffer);
        goto FINISH;
    }
    free(kernelSource);
    kernelSource = NULL;

    kernel = clCreateKernel(program, "kernel_dot", &ret);
    if (kernel == NULL) {
        puts("Kernel failed to create!");
        goto FINISH;
    }
    ret = clSetKernelArg(kernel, 0, sizeof(cl_mem), (void *)&dstMemObj);
    ret |= clSetKernelArg(kernel, 1, sizeof(cl_mem), (void *)&src1MemObj);
    ret |= clSetKernelArg(kernel, 2, sizeof(cl_mem), (void *)&src2MemObj);
    if (ret != CL_SUCCESS) {
        puts("Set arguments error!");
        goto FINISH;
    }
    /* nWorkItems work-items in all, in one work-group of nWorkItems */
    ret = clEnqueueNDRangeKernel(command_queue, kernel, 1, NULL, (const size_t[]){ nWorkItems },
                                 (const size_t[]){ nWorkItems }, 2, (const cl_event[]){ evt1, evt2 }, NULL);
    if (ret != CL_SUCCESS) {
        puts("kernel1 execution failed");
        goto FINISH;
    }
    clFinish(command_queue);

    pDeviceBuffer = malloc(sizeof(int));
    clEnqueueReadBuffer(command_queue, dstMemObj, CL_TRUE, 0, 4, pDeviceBuffer, 0, NULL, NULL);
    int sum = 0;
    for (int i = 0; i < nWorkItems; i++)
        sum += pHostBuffer[i] * pHostBuffer[i];
    if (sum == *pDeviceBuffer) {
        puts("Result is OK!");
        status = EXIT_SUCCESS;
    } else {
        printf("Result not equal! (%d, expected %d)\n", *pDeviceBuffer, sum);
    }

FINISH:
    free(kernelSource);
    free(pHostBuffer);
    free(pDeviceBuffer);
    if (evt1) clReleaseEvent(evt1);
    if (evt2) clReleaseEvent(evt2);
    if (src1MemObj) clReleaseMemObject(src1MemObj);
    if (src2MemObj) clReleaseMemObject(src2MemObj);
    if (dstMemObj) clReleaseMemObject(dstMemObj);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    if (command_queue) clReleaseCommandQueue(command_queue);
    if (context) clReleaseContext(context);
    return status;
}
