/* global module */
// node-polyglot (react-admin's translations) requires the object.entries polyfill, which brings some
// twenty packages of intrinsics helpers into the first download; every browser the apps support has
// Object.entries itself (vite.config.ts points the package here).
module.exports = Object.entries;
