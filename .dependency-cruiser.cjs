// Dependency rules of the source tree (docs/architecture.md), checked by `npm run lint:deps`, which
// `npm test` runs. Type-only imports count: a cycle through types is still a cycle to a reader.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles at all, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-imports-no-service',
      severity: 'error',
      comment: 'src/lib is shared by every service and imports none of them.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(platform|recorder|mcp|ai|labs)/' },
    },
    {
      name: 'access-vocabulary-is-a-leaf',
      severity: 'error',
      comment: 'policy, scopes, principal and decide are pure: any feature imports them, they import no feature.',
      from: { path: '^src/platform/access/' },
      to: { path: '^src/platform/', pathNot: '^src/platform/access/' },
    },
    {
      name: 'tables-are-leaves',
      severity: 'error',
      comment:
        "A feature's table declarations import nothing of the platform but other table declarations: every repository imports them through the platform's database type.",
      from: { path: '-tables\\.ts$' },
      to: { path: '^src/platform/', pathNot: ['-tables\\.ts$', '^src/platform/access/'] },
    },
    {
      name: 'services-stand-apart',
      severity: 'error',
      comment: 'The recorder, MCP, AI and Labs talk to the main API over HTTP; no service imports another one.',
      from: { path: '^src/(platform|recorder|mcp|ai|labs)/' },
      to: { path: '^src/(platform|recorder|mcp|ai|labs)/', pathNot: '^src/$1/' },
    },
    {
      name: 'features-meet-at-their-index',
      severity: 'error',
      comment:
        "A feature folder of src/platform is a module: other features import only its index.ts, never its repository, tables, routes or services' files. db/ and plugins/ are the platform's shared infrastructure, and the files at src/platform's root (app.ts, database.ts) compose the features.",
      from: { path: '^src/platform/([^/]+)/', pathNot: '^src/platform/(db|plugins)/' },
      to: { path: '^src/platform/[^/]+/', pathNot: ['^src/platform/$1/', '^src/platform/[^/]+/index\\.ts$', '^src/platform/(db|plugins)/'] },
    },
    {
      name: 'no-cycle-between-feature-folders',
      severity: 'error',
      scope: 'folder',
      comment:
        'Dependencies between feature folders point one way (docs/architecture.md, Dependency rules): no two features import each other, directly or around a loop. database.ts composes the tables at the root, which is no feature.',
      from: { path: '^src/platform/[^/]+$' },
      to: { path: '^src/platform/[^/]+$', circular: true },
    },
    {
      name: 'recorder-folders-meet-at-their-index',
      severity: 'error',
      comment:
        "A folder of src/recorder is a module: other folders import only its index.ts. db/ (the database, its schema, migrations and sealed secrets) is the recorder's shared infrastructure, and the files at src/recorder's root (app.ts, services.ts, server.ts, cli.ts) compose the folders.",
      from: { path: '^src/recorder/([^/]+)/', pathNot: '^src/recorder/db/' },
      to: { path: '^src/recorder/[^/]+/', pathNot: ['^src/recorder/$1/', '^src/recorder/[^/]+/index\\.ts$', '^src/recorder/db/'] },
    },
    {
      name: 'no-cycle-between-recorder-folders',
      severity: 'error',
      scope: 'folder',
      comment:
        "Dependencies between the recorder's folders point one way (docs/architecture.md, The recorder's folders): no two import each other, directly or around a loop.",
      from: { path: '^src/recorder/[^/]+$' },
      to: { path: '^src/recorder/[^/]+$', circular: true },
    },
    {
      name: 'recorder-folders-stay-below-its-composition',
      severity: 'error',
      comment:
        "app.ts, services.ts, server.ts and cli.ts compose the recorder's folders; no folder imports them (a folder that needs another's service names it as a small interface of its own).",
      from: { path: '^src/recorder/[^/]+/' },
      to: { path: '^src/recorder/(app|services|server|cli)\\.ts$' },
    },
    {
      name: 'features-reach-services-by-declaration',
      severity: 'error',
      comment: "Only app.ts composes the feature plugins; a feature never imports another feature's plugin file.",
      from: { path: '^src/platform/', pathNot: '^src/platform/app\\.ts$' },
      to: { path: '-plugin\\.ts$', pathNot: '^src/platform/plugins/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
