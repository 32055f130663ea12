#!/bin/sh
# Builds the wasm kernels and the JS driveCars bundle into scratch/wasm-driver/out/ (run from the worktree root;
# needs `npm i --no-save assemblyscript@0.28.20`).
set -e
ASC_FLAGS="--runtime stub --noAssert -O3 --importMemory --use abort="
mkdir -p scratch/wasm-driver/out
npx asc scratch/wasm-driver/drive-cars.as.ts $ASC_FLAGS -o scratch/wasm-driver/out/drive-cars.wasm -t scratch/wasm-driver/out/drive-cars.wat
node scratch/wasm-driver/gen-variants.mjs
for v in fixed split; do npx asc scratch/wasm-driver/out/drive-cars.$v.as.ts $ASC_FLAGS -o scratch/wasm-driver/out/drive-cars.$v.wasm -t scratch/wasm-driver/out/drive-cars.$v.wat; done
npx asc scratch/wasm-driver/out/drive-cars.simd.as.ts $ASC_FLAGS --enable simd -o scratch/wasm-driver/out/drive-cars.simd.wasm -t scratch/wasm-driver/out/drive-cars.simd.wat
npx vite build --config scratch/wasm-driver/vite.js.config.mjs
# Optimiser-level variants of the base kernel (the same source):
npx asc scratch/wasm-driver/drive-cars.as.ts --runtime stub --noAssert -O2 --importMemory --use abort= -o scratch/wasm-driver/out/drive-cars.O2.wasm
npx asc scratch/wasm-driver/drive-cars.as.ts --runtime stub --noAssert -O3 --converge --importMemory --use abort= -o scratch/wasm-driver/out/drive-cars.O3converge.wasm
