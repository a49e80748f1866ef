export { default } from '../scripts/eslint.node-programs.mjs';
