/** The part of jStat (MIT, a CommonJS/UMD bundle without types) that Assay uses: the normal distribution. */
declare module 'jstat' {
  const jstat: {
    jStat: {
      normal: {
        cdf(x: number, mean: number, std: number): number;
        inv(p: number, mean: number, std: number): number;
      };
    };
  };
  export default jstat;
}
