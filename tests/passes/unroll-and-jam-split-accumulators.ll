; unroll-and-jam, after the rows: a loop of one block that carries more
; vectors of floating point than three quarters of the vector registers (32
; accumulators of 8 floats on AVX-512: a widened register tile of 8x4 floats
; a work-item, as a BLAS library's direct SGEMM has) runs as two loops, one
; after the other, each carrying 16 of them and loading again what they read
; (accumulator_split.c); the exit's phis take each accumulator from its loop.
; A loop that stores to memory it loads from (@tile_stores_read) is left
; alone.
; RUN: mosaic-opt --start-at=unroll-and-jam --stop-after=unroll-and-jam --mcpu=skylake-avx512 --mattr=+sse4.2,+avx,+avx2,+fma,+avx512f,+avx512vl,+avx512bw,+avx512dq,+avx512cd %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define void @tile(
; CHECK: loop:
; CHECK-COUNT-16: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK: br i1 %done, label %split, label %loop
; CHECK: split:
; CHECK-COUNT-16: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK: br i1 %{{[0-9]+}}, label %exit, label %split
; CHECK: exit:
; CHECK-NEXT: %out0 = phi <8 x float> [ %acc0.next, %split ]
; CHECK: %out31 = phi <8 x float> [ %{{[0-9]+}}, %split ]
; CHECK-LABEL: define void @tile_stores_read(
; CHECK-COUNT-32: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK-NOT: call <8 x float> @llvm.fmuladd.v8f32(
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

define void @tile(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc0 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc0.next, %loop ]
  %acc1 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc1.next, %loop ]
  %acc2 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc2.next, %loop ]
  %acc3 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc3.next, %loop ]
  %acc4 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc4.next, %loop ]
  %acc5 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc5.next, %loop ]
  %acc6 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc6.next, %loop ]
  %acc7 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc7.next, %loop ]
  %acc8 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc8.next, %loop ]
  %acc9 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc9.next, %loop ]
  %acc10 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc10.next, %loop ]
  %acc11 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc11.next, %loop ]
  %acc12 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc12.next, %loop ]
  %acc13 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc13.next, %loop ]
  %acc14 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc14.next, %loop ]
  %acc15 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc15.next, %loop ]
  %acc16 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc16.next, %loop ]
  %acc17 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc17.next, %loop ]
  %acc18 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc18.next, %loop ]
  %acc19 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc19.next, %loop ]
  %acc20 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc20.next, %loop ]
  %acc21 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc21.next, %loop ]
  %acc22 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc22.next, %loop ]
  %acc23 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc23.next, %loop ]
  %acc24 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc24.next, %loop ]
  %acc25 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc25.next, %loop ]
  %acc26 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc26.next, %loop ]
  %acc27 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc27.next, %loop ]
  %acc28 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc28.next, %loop ]
  %acc29 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc29.next, %loop ]
  %acc30 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc30.next, %loop ]
  %acc31 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc31.next, %loop ]
  %brow = mul i64 %k, 4
  %bi0 = add i64 %brow, 0
  %bp0 = getelementptr <8 x float>, ptr %b, i64 %bi0
  %bv0 = load <8 x float>, ptr %bp0, align 32
  %bi1 = add i64 %brow, 1
  %bp1 = getelementptr <8 x float>, ptr %b, i64 %bi1
  %bv1 = load <8 x float>, ptr %bp1, align 32
  %bi2 = add i64 %brow, 2
  %bp2 = getelementptr <8 x float>, ptr %b, i64 %bi2
  %bv2 = load <8 x float>, ptr %bp2, align 32
  %bi3 = add i64 %brow, 3
  %bp3 = getelementptr <8 x float>, ptr %b, i64 %bi3
  %bv3 = load <8 x float>, ptr %bp3, align 32
  %arow = mul i64 %k, 8
  %ai0 = add i64 %arow, 0
  %ap0 = getelementptr float, ptr %a, i64 %ai0
  %as0 = load float, ptr %ap0, align 4
  %ae0 = insertelement <8 x float> poison, float %as0, i64 0
  %av0 = shufflevector <8 x float> %ae0, <8 x float> poison, <8 x i32> zeroinitializer
  %acc0.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv0, <8 x float> %acc0)
  %acc1.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv1, <8 x float> %acc1)
  %acc2.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv2, <8 x float> %acc2)
  %acc3.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv3, <8 x float> %acc3)
  %ai1 = add i64 %arow, 1
  %ap1 = getelementptr float, ptr %a, i64 %ai1
  %as1 = load float, ptr %ap1, align 4
  %ae1 = insertelement <8 x float> poison, float %as1, i64 0
  %av1 = shufflevector <8 x float> %ae1, <8 x float> poison, <8 x i32> zeroinitializer
  %acc4.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv0, <8 x float> %acc4)
  %acc5.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv1, <8 x float> %acc5)
  %acc6.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv2, <8 x float> %acc6)
  %acc7.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv3, <8 x float> %acc7)
  %ai2 = add i64 %arow, 2
  %ap2 = getelementptr float, ptr %a, i64 %ai2
  %as2 = load float, ptr %ap2, align 4
  %ae2 = insertelement <8 x float> poison, float %as2, i64 0
  %av2 = shufflevector <8 x float> %ae2, <8 x float> poison, <8 x i32> zeroinitializer
  %acc8.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv0, <8 x float> %acc8)
  %acc9.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv1, <8 x float> %acc9)
  %acc10.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv2, <8 x float> %acc10)
  %acc11.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv3, <8 x float> %acc11)
  %ai3 = add i64 %arow, 3
  %ap3 = getelementptr float, ptr %a, i64 %ai3
  %as3 = load float, ptr %ap3, align 4
  %ae3 = insertelement <8 x float> poison, float %as3, i64 0
  %av3 = shufflevector <8 x float> %ae3, <8 x float> poison, <8 x i32> zeroinitializer
  %acc12.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv0, <8 x float> %acc12)
  %acc13.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv1, <8 x float> %acc13)
  %acc14.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv2, <8 x float> %acc14)
  %acc15.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv3, <8 x float> %acc15)
  %ai4 = add i64 %arow, 4
  %ap4 = getelementptr float, ptr %a, i64 %ai4
  %as4 = load float, ptr %ap4, align 4
  %ae4 = insertelement <8 x float> poison, float %as4, i64 0
  %av4 = shufflevector <8 x float> %ae4, <8 x float> poison, <8 x i32> zeroinitializer
  %acc16.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv0, <8 x float> %acc16)
  %acc17.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv1, <8 x float> %acc17)
  %acc18.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv2, <8 x float> %acc18)
  %acc19.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv3, <8 x float> %acc19)
  %ai5 = add i64 %arow, 5
  %ap5 = getelementptr float, ptr %a, i64 %ai5
  %as5 = load float, ptr %ap5, align 4
  %ae5 = insertelement <8 x float> poison, float %as5, i64 0
  %av5 = shufflevector <8 x float> %ae5, <8 x float> poison, <8 x i32> zeroinitializer
  %acc20.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv0, <8 x float> %acc20)
  %acc21.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv1, <8 x float> %acc21)
  %acc22.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv2, <8 x float> %acc22)
  %acc23.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv3, <8 x float> %acc23)
  %ai6 = add i64 %arow, 6
  %ap6 = getelementptr float, ptr %a, i64 %ai6
  %as6 = load float, ptr %ap6, align 4
  %ae6 = insertelement <8 x float> poison, float %as6, i64 0
  %av6 = shufflevector <8 x float> %ae6, <8 x float> poison, <8 x i32> zeroinitializer
  %acc24.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv0, <8 x float> %acc24)
  %acc25.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv1, <8 x float> %acc25)
  %acc26.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv2, <8 x float> %acc26)
  %acc27.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv3, <8 x float> %acc27)
  %ai7 = add i64 %arow, 7
  %ap7 = getelementptr float, ptr %a, i64 %ai7
  %as7 = load float, ptr %ap7, align 4
  %ae7 = insertelement <8 x float> poison, float %as7, i64 0
  %av7 = shufflevector <8 x float> %ae7, <8 x float> poison, <8 x i32> zeroinitializer
  %acc28.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv0, <8 x float> %acc28)
  %acc29.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv1, <8 x float> %acc29)
  %acc30.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv2, <8 x float> %acc30)
  %acc31.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv3, <8 x float> %acc31)
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 64
  br i1 %done, label %exit, label %loop

exit:
  %out0 = phi <8 x float> [ %acc0.next, %loop ]
  %out1 = phi <8 x float> [ %acc1.next, %loop ]
  %out2 = phi <8 x float> [ %acc2.next, %loop ]
  %out3 = phi <8 x float> [ %acc3.next, %loop ]
  %out4 = phi <8 x float> [ %acc4.next, %loop ]
  %out5 = phi <8 x float> [ %acc5.next, %loop ]
  %out6 = phi <8 x float> [ %acc6.next, %loop ]
  %out7 = phi <8 x float> [ %acc7.next, %loop ]
  %out8 = phi <8 x float> [ %acc8.next, %loop ]
  %out9 = phi <8 x float> [ %acc9.next, %loop ]
  %out10 = phi <8 x float> [ %acc10.next, %loop ]
  %out11 = phi <8 x float> [ %acc11.next, %loop ]
  %out12 = phi <8 x float> [ %acc12.next, %loop ]
  %out13 = phi <8 x float> [ %acc13.next, %loop ]
  %out14 = phi <8 x float> [ %acc14.next, %loop ]
  %out15 = phi <8 x float> [ %acc15.next, %loop ]
  %out16 = phi <8 x float> [ %acc16.next, %loop ]
  %out17 = phi <8 x float> [ %acc17.next, %loop ]
  %out18 = phi <8 x float> [ %acc18.next, %loop ]
  %out19 = phi <8 x float> [ %acc19.next, %loop ]
  %out20 = phi <8 x float> [ %acc20.next, %loop ]
  %out21 = phi <8 x float> [ %acc21.next, %loop ]
  %out22 = phi <8 x float> [ %acc22.next, %loop ]
  %out23 = phi <8 x float> [ %acc23.next, %loop ]
  %out24 = phi <8 x float> [ %acc24.next, %loop ]
  %out25 = phi <8 x float> [ %acc25.next, %loop ]
  %out26 = phi <8 x float> [ %acc26.next, %loop ]
  %out27 = phi <8 x float> [ %acc27.next, %loop ]
  %out28 = phi <8 x float> [ %acc28.next, %loop ]
  %out29 = phi <8 x float> [ %acc29.next, %loop ]
  %out30 = phi <8 x float> [ %acc30.next, %loop ]
  %out31 = phi <8 x float> [ %acc31.next, %loop ]
  %cp0 = getelementptr <8 x float>, ptr %c, i64 0
  store <8 x float> %out0, ptr %cp0, align 32
  %cp1 = getelementptr <8 x float>, ptr %c, i64 1
  store <8 x float> %out1, ptr %cp1, align 32
  %cp2 = getelementptr <8 x float>, ptr %c, i64 2
  store <8 x float> %out2, ptr %cp2, align 32
  %cp3 = getelementptr <8 x float>, ptr %c, i64 3
  store <8 x float> %out3, ptr %cp3, align 32
  %cp4 = getelementptr <8 x float>, ptr %c, i64 4
  store <8 x float> %out4, ptr %cp4, align 32
  %cp5 = getelementptr <8 x float>, ptr %c, i64 5
  store <8 x float> %out5, ptr %cp5, align 32
  %cp6 = getelementptr <8 x float>, ptr %c, i64 6
  store <8 x float> %out6, ptr %cp6, align 32
  %cp7 = getelementptr <8 x float>, ptr %c, i64 7
  store <8 x float> %out7, ptr %cp7, align 32
  %cp8 = getelementptr <8 x float>, ptr %c, i64 8
  store <8 x float> %out8, ptr %cp8, align 32
  %cp9 = getelementptr <8 x float>, ptr %c, i64 9
  store <8 x float> %out9, ptr %cp9, align 32
  %cp10 = getelementptr <8 x float>, ptr %c, i64 10
  store <8 x float> %out10, ptr %cp10, align 32
  %cp11 = getelementptr <8 x float>, ptr %c, i64 11
  store <8 x float> %out11, ptr %cp11, align 32
  %cp12 = getelementptr <8 x float>, ptr %c, i64 12
  store <8 x float> %out12, ptr %cp12, align 32
  %cp13 = getelementptr <8 x float>, ptr %c, i64 13
  store <8 x float> %out13, ptr %cp13, align 32
  %cp14 = getelementptr <8 x float>, ptr %c, i64 14
  store <8 x float> %out14, ptr %cp14, align 32
  %cp15 = getelementptr <8 x float>, ptr %c, i64 15
  store <8 x float> %out15, ptr %cp15, align 32
  %cp16 = getelementptr <8 x float>, ptr %c, i64 16
  store <8 x float> %out16, ptr %cp16, align 32
  %cp17 = getelementptr <8 x float>, ptr %c, i64 17
  store <8 x float> %out17, ptr %cp17, align 32
  %cp18 = getelementptr <8 x float>, ptr %c, i64 18
  store <8 x float> %out18, ptr %cp18, align 32
  %cp19 = getelementptr <8 x float>, ptr %c, i64 19
  store <8 x float> %out19, ptr %cp19, align 32
  %cp20 = getelementptr <8 x float>, ptr %c, i64 20
  store <8 x float> %out20, ptr %cp20, align 32
  %cp21 = getelementptr <8 x float>, ptr %c, i64 21
  store <8 x float> %out21, ptr %cp21, align 32
  %cp22 = getelementptr <8 x float>, ptr %c, i64 22
  store <8 x float> %out22, ptr %cp22, align 32
  %cp23 = getelementptr <8 x float>, ptr %c, i64 23
  store <8 x float> %out23, ptr %cp23, align 32
  %cp24 = getelementptr <8 x float>, ptr %c, i64 24
  store <8 x float> %out24, ptr %cp24, align 32
  %cp25 = getelementptr <8 x float>, ptr %c, i64 25
  store <8 x float> %out25, ptr %cp25, align 32
  %cp26 = getelementptr <8 x float>, ptr %c, i64 26
  store <8 x float> %out26, ptr %cp26, align 32
  %cp27 = getelementptr <8 x float>, ptr %c, i64 27
  store <8 x float> %out27, ptr %cp27, align 32
  %cp28 = getelementptr <8 x float>, ptr %c, i64 28
  store <8 x float> %out28, ptr %cp28, align 32
  %cp29 = getelementptr <8 x float>, ptr %c, i64 29
  store <8 x float> %out29, ptr %cp29, align 32
  %cp30 = getelementptr <8 x float>, ptr %c, i64 30
  store <8 x float> %out30, ptr %cp30, align 32
  %cp31 = getelementptr <8 x float>, ptr %c, i64 31
  store <8 x float> %out31, ptr %cp31, align 32
  ret void
}

define void @tile_stores_read(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc0 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc0.next, %loop ]
  %acc1 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc1.next, %loop ]
  %acc2 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc2.next, %loop ]
  %acc3 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc3.next, %loop ]
  %acc4 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc4.next, %loop ]
  %acc5 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc5.next, %loop ]
  %acc6 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc6.next, %loop ]
  %acc7 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc7.next, %loop ]
  %acc8 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc8.next, %loop ]
  %acc9 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc9.next, %loop ]
  %acc10 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc10.next, %loop ]
  %acc11 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc11.next, %loop ]
  %acc12 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc12.next, %loop ]
  %acc13 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc13.next, %loop ]
  %acc14 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc14.next, %loop ]
  %acc15 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc15.next, %loop ]
  %acc16 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc16.next, %loop ]
  %acc17 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc17.next, %loop ]
  %acc18 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc18.next, %loop ]
  %acc19 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc19.next, %loop ]
  %acc20 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc20.next, %loop ]
  %acc21 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc21.next, %loop ]
  %acc22 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc22.next, %loop ]
  %acc23 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc23.next, %loop ]
  %acc24 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc24.next, %loop ]
  %acc25 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc25.next, %loop ]
  %acc26 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc26.next, %loop ]
  %acc27 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc27.next, %loop ]
  %acc28 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc28.next, %loop ]
  %acc29 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc29.next, %loop ]
  %acc30 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc30.next, %loop ]
  %acc31 = phi <8 x float> [ zeroinitializer, %entry ], [ %acc31.next, %loop ]
  %brow = mul i64 %k, 4
  %bi0 = add i64 %brow, 0
  %bp0 = getelementptr <8 x float>, ptr %b, i64 %bi0
  %bv0 = load <8 x float>, ptr %bp0, align 32
  %bi1 = add i64 %brow, 1
  %bp1 = getelementptr <8 x float>, ptr %b, i64 %bi1
  %bv1 = load <8 x float>, ptr %bp1, align 32
  %bi2 = add i64 %brow, 2
  %bp2 = getelementptr <8 x float>, ptr %b, i64 %bi2
  %bv2 = load <8 x float>, ptr %bp2, align 32
  %bi3 = add i64 %brow, 3
  %bp3 = getelementptr <8 x float>, ptr %b, i64 %bi3
  %bv3 = load <8 x float>, ptr %bp3, align 32
  %arow = mul i64 %k, 8
  %ai0 = add i64 %arow, 0
  %ap0 = getelementptr float, ptr %a, i64 %ai0
  %as0 = load float, ptr %ap0, align 4
  %ae0 = insertelement <8 x float> poison, float %as0, i64 0
  %av0 = shufflevector <8 x float> %ae0, <8 x float> poison, <8 x i32> zeroinitializer
  %acc0.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv0, <8 x float> %acc0)
  %acc1.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv1, <8 x float> %acc1)
  %acc2.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv2, <8 x float> %acc2)
  %acc3.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av0, <8 x float> %bv3, <8 x float> %acc3)
  %ai1 = add i64 %arow, 1
  %ap1 = getelementptr float, ptr %a, i64 %ai1
  %as1 = load float, ptr %ap1, align 4
  %ae1 = insertelement <8 x float> poison, float %as1, i64 0
  %av1 = shufflevector <8 x float> %ae1, <8 x float> poison, <8 x i32> zeroinitializer
  %acc4.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv0, <8 x float> %acc4)
  %acc5.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv1, <8 x float> %acc5)
  %acc6.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv2, <8 x float> %acc6)
  %acc7.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av1, <8 x float> %bv3, <8 x float> %acc7)
  %ai2 = add i64 %arow, 2
  %ap2 = getelementptr float, ptr %a, i64 %ai2
  %as2 = load float, ptr %ap2, align 4
  %ae2 = insertelement <8 x float> poison, float %as2, i64 0
  %av2 = shufflevector <8 x float> %ae2, <8 x float> poison, <8 x i32> zeroinitializer
  %acc8.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv0, <8 x float> %acc8)
  %acc9.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv1, <8 x float> %acc9)
  %acc10.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv2, <8 x float> %acc10)
  %acc11.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av2, <8 x float> %bv3, <8 x float> %acc11)
  %ai3 = add i64 %arow, 3
  %ap3 = getelementptr float, ptr %a, i64 %ai3
  %as3 = load float, ptr %ap3, align 4
  %ae3 = insertelement <8 x float> poison, float %as3, i64 0
  %av3 = shufflevector <8 x float> %ae3, <8 x float> poison, <8 x i32> zeroinitializer
  %acc12.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv0, <8 x float> %acc12)
  %acc13.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv1, <8 x float> %acc13)
  %acc14.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv2, <8 x float> %acc14)
  %acc15.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av3, <8 x float> %bv3, <8 x float> %acc15)
  %ai4 = add i64 %arow, 4
  %ap4 = getelementptr float, ptr %a, i64 %ai4
  %as4 = load float, ptr %ap4, align 4
  %ae4 = insertelement <8 x float> poison, float %as4, i64 0
  %av4 = shufflevector <8 x float> %ae4, <8 x float> poison, <8 x i32> zeroinitializer
  %acc16.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv0, <8 x float> %acc16)
  %acc17.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv1, <8 x float> %acc17)
  %acc18.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv2, <8 x float> %acc18)
  %acc19.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av4, <8 x float> %bv3, <8 x float> %acc19)
  %ai5 = add i64 %arow, 5
  %ap5 = getelementptr float, ptr %a, i64 %ai5
  %as5 = load float, ptr %ap5, align 4
  %ae5 = insertelement <8 x float> poison, float %as5, i64 0
  %av5 = shufflevector <8 x float> %ae5, <8 x float> poison, <8 x i32> zeroinitializer
  %acc20.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv0, <8 x float> %acc20)
  %acc21.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv1, <8 x float> %acc21)
  %acc22.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv2, <8 x float> %acc22)
  %acc23.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av5, <8 x float> %bv3, <8 x float> %acc23)
  %ai6 = add i64 %arow, 6
  %ap6 = getelementptr float, ptr %a, i64 %ai6
  %as6 = load float, ptr %ap6, align 4
  %ae6 = insertelement <8 x float> poison, float %as6, i64 0
  %av6 = shufflevector <8 x float> %ae6, <8 x float> poison, <8 x i32> zeroinitializer
  %acc24.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv0, <8 x float> %acc24)
  %acc25.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv1, <8 x float> %acc25)
  %acc26.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv2, <8 x float> %acc26)
  %acc27.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av6, <8 x float> %bv3, <8 x float> %acc27)
  %ai7 = add i64 %arow, 7
  %ap7 = getelementptr float, ptr %a, i64 %ai7
  %as7 = load float, ptr %ap7, align 4
  %ae7 = insertelement <8 x float> poison, float %as7, i64 0
  %av7 = shufflevector <8 x float> %ae7, <8 x float> poison, <8 x i32> zeroinitializer
  %acc28.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv0, <8 x float> %acc28)
  %acc29.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv1, <8 x float> %acc29)
  %acc30.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv2, <8 x float> %acc30)
  %acc31.next = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %av7, <8 x float> %bv3, <8 x float> %acc31)
  %sp = getelementptr <8 x float>, ptr %b, i64 %brow
  store <8 x float> %bv1, ptr %sp, align 32
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 64
  br i1 %done, label %exit, label %loop

exit:
  %out0 = phi <8 x float> [ %acc0.next, %loop ]
  %out1 = phi <8 x float> [ %acc1.next, %loop ]
  %out2 = phi <8 x float> [ %acc2.next, %loop ]
  %out3 = phi <8 x float> [ %acc3.next, %loop ]
  %out4 = phi <8 x float> [ %acc4.next, %loop ]
  %out5 = phi <8 x float> [ %acc5.next, %loop ]
  %out6 = phi <8 x float> [ %acc6.next, %loop ]
  %out7 = phi <8 x float> [ %acc7.next, %loop ]
  %out8 = phi <8 x float> [ %acc8.next, %loop ]
  %out9 = phi <8 x float> [ %acc9.next, %loop ]
  %out10 = phi <8 x float> [ %acc10.next, %loop ]
  %out11 = phi <8 x float> [ %acc11.next, %loop ]
  %out12 = phi <8 x float> [ %acc12.next, %loop ]
  %out13 = phi <8 x float> [ %acc13.next, %loop ]
  %out14 = phi <8 x float> [ %acc14.next, %loop ]
  %out15 = phi <8 x float> [ %acc15.next, %loop ]
  %out16 = phi <8 x float> [ %acc16.next, %loop ]
  %out17 = phi <8 x float> [ %acc17.next, %loop ]
  %out18 = phi <8 x float> [ %acc18.next, %loop ]
  %out19 = phi <8 x float> [ %acc19.next, %loop ]
  %out20 = phi <8 x float> [ %acc20.next, %loop ]
  %out21 = phi <8 x float> [ %acc21.next, %loop ]
  %out22 = phi <8 x float> [ %acc22.next, %loop ]
  %out23 = phi <8 x float> [ %acc23.next, %loop ]
  %out24 = phi <8 x float> [ %acc24.next, %loop ]
  %out25 = phi <8 x float> [ %acc25.next, %loop ]
  %out26 = phi <8 x float> [ %acc26.next, %loop ]
  %out27 = phi <8 x float> [ %acc27.next, %loop ]
  %out28 = phi <8 x float> [ %acc28.next, %loop ]
  %out29 = phi <8 x float> [ %acc29.next, %loop ]
  %out30 = phi <8 x float> [ %acc30.next, %loop ]
  %out31 = phi <8 x float> [ %acc31.next, %loop ]
  %cp0 = getelementptr <8 x float>, ptr %c, i64 0
  store <8 x float> %out0, ptr %cp0, align 32
  %cp1 = getelementptr <8 x float>, ptr %c, i64 1
  store <8 x float> %out1, ptr %cp1, align 32
  %cp2 = getelementptr <8 x float>, ptr %c, i64 2
  store <8 x float> %out2, ptr %cp2, align 32
  %cp3 = getelementptr <8 x float>, ptr %c, i64 3
  store <8 x float> %out3, ptr %cp3, align 32
  %cp4 = getelementptr <8 x float>, ptr %c, i64 4
  store <8 x float> %out4, ptr %cp4, align 32
  %cp5 = getelementptr <8 x float>, ptr %c, i64 5
  store <8 x float> %out5, ptr %cp5, align 32
  %cp6 = getelementptr <8 x float>, ptr %c, i64 6
  store <8 x float> %out6, ptr %cp6, align 32
  %cp7 = getelementptr <8 x float>, ptr %c, i64 7
  store <8 x float> %out7, ptr %cp7, align 32
  %cp8 = getelementptr <8 x float>, ptr %c, i64 8
  store <8 x float> %out8, ptr %cp8, align 32
  %cp9 = getelementptr <8 x float>, ptr %c, i64 9
  store <8 x float> %out9, ptr %cp9, align 32
  %cp10 = getelementptr <8 x float>, ptr %c, i64 10
  store <8 x float> %out10, ptr %cp10, align 32
  %cp11 = getelementptr <8 x float>, ptr %c, i64 11
  store <8 x float> %out11, ptr %cp11, align 32
  %cp12 = getelementptr <8 x float>, ptr %c, i64 12
  store <8 x float> %out12, ptr %cp12, align 32
  %cp13 = getelementptr <8 x float>, ptr %c, i64 13
  store <8 x float> %out13, ptr %cp13, align 32
  %cp14 = getelementptr <8 x float>, ptr %c, i64 14
  store <8 x float> %out14, ptr %cp14, align 32
  %cp15 = getelementptr <8 x float>, ptr %c, i64 15
  store <8 x float> %out15, ptr %cp15, align 32
  %cp16 = getelementptr <8 x float>, ptr %c, i64 16
  store <8 x float> %out16, ptr %cp16, align 32
  %cp17 = getelementptr <8 x float>, ptr %c, i64 17
  store <8 x float> %out17, ptr %cp17, align 32
  %cp18 = getelementptr <8 x float>, ptr %c, i64 18
  store <8 x float> %out18, ptr %cp18, align 32
  %cp19 = getelementptr <8 x float>, ptr %c, i64 19
  store <8 x float> %out19, ptr %cp19, align 32
  %cp20 = getelementptr <8 x float>, ptr %c, i64 20
  store <8 x float> %out20, ptr %cp20, align 32
  %cp21 = getelementptr <8 x float>, ptr %c, i64 21
  store <8 x float> %out21, ptr %cp21, align 32
  %cp22 = getelementptr <8 x float>, ptr %c, i64 22
  store <8 x float> %out22, ptr %cp22, align 32
  %cp23 = getelementptr <8 x float>, ptr %c, i64 23
  store <8 x float> %out23, ptr %cp23, align 32
  %cp24 = getelementptr <8 x float>, ptr %c, i64 24
  store <8 x float> %out24, ptr %cp24, align 32
  %cp25 = getelementptr <8 x float>, ptr %c, i64 25
  store <8 x float> %out25, ptr %cp25, align 32
  %cp26 = getelementptr <8 x float>, ptr %c, i64 26
  store <8 x float> %out26, ptr %cp26, align 32
  %cp27 = getelementptr <8 x float>, ptr %c, i64 27
  store <8 x float> %out27, ptr %cp27, align 32
  %cp28 = getelementptr <8 x float>, ptr %c, i64 28
  store <8 x float> %out28, ptr %cp28, align 32
  %cp29 = getelementptr <8 x float>, ptr %c, i64 29
  store <8 x float> %out29, ptr %cp29, align 32
  %cp30 = getelementptr <8 x float>, ptr %c, i64 30
  store <8 x float> %out30, ptr %cp30, align 32
  %cp31 = getelementptr <8 x float>, ptr %c, i64 31
  store <8 x float> %out31, ptr %cp31, align 32
  ret void
}
