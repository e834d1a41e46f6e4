// The languages are shared with the BFF: schemas/app/languages.ts.
export * from '../../schemas/app/languages';
