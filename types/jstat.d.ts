/** The part of jStat (MIT, a CommonJS/UMD bundle without types) that Assay uses: the normal and Student's t distributions. */
declare module 'jstat' {
  const jstat: {
    jStat: {
      normal: {
        cdf(x: number, mean: number, std: number): number;
        inv(p: number, mean: number, std: number): number;
      };
      studentt: {
        cdf(x: number, dof: number): number;
        inv(p: number, dof: number): number;
      };
    };
  };
  export default jstat;
}
