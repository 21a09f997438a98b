'use strict';
// Express 5 serving files as its users do (bench/static.js): `express.static` with its defaults, for the files of
// STATIC_DIR under /static and for swagger-ui-dist's folder under /docs/assets (the file trellis's docs serve).
const path = require('node:path');
const express = require('express');

const dir = process.env.STATIC_DIR;
if (!dir) throw new Error('STATIC_DIR is not set (bench/static.js sets it)');
const app = express();
app.use('/static', express.static(dir));
app.use('/docs/assets', express.static(path.dirname(require.resolve('swagger-ui-dist/swagger-ui.css'))));
app.listen(Number(process.env.PORT), '127.0.0.1');
