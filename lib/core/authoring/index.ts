export * from './pull-request';
