// The package's public surface: content loaders (Node only) and the pure schemas and parsers.
export * from './blocks';
export * from './constants';
export * from './front-matter';
export * from './internal-links';
export * from './load-content';
export * from './markdown-outline';
export * from './schemas';
