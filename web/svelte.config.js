/** Runes everywhere: no legacy component syntax in this client. */
export default {
  compilerOptions: { runes: true },
};
