#!/bin/sh
# Builds the wasm kernel and the JS driveCars bundle into scratch/wasm-driver/out/ (run from the worktree root;
# needs `npm i --no-save assemblyscript@0.28.20`).
set -e
npx asc scratch/wasm-driver/drive-cars.as.ts --runtime stub --noAssert -O3 --importMemory --use abort= \
  -o scratch/wasm-driver/out/drive-cars.wasm -t scratch/wasm-driver/out/drive-cars.wat
npx vite build --config scratch/wasm-driver/vite.js.config.mjs
