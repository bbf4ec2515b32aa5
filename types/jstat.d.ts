/** The part of jStat (https://jstat.github.io, MIT, no types published) that Assay uses. */
declare module 'jstat' {
  interface Distribution1 {
    cdf(x: number, dof: number): number;
    inv(p: number, dof: number): number;
  }
  interface Normal {
    cdf(x: number, mean: number, sd: number): number;
    inv(p: number, mean: number, sd: number): number;
  }
  const jStat: { studentt: Distribution1; normal: Normal };
  export default jStat;
}
