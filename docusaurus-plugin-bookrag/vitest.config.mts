import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node'},
  esbuild: {jsx: 'automatic'},
});
