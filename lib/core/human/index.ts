export * from './prediction-powered';
export * from './bradley-terry';
export * from './agreement';
export * from './review-design';
