// `npm run dev`: the backend (restarting on change) beside Vite's dev server,
// which proxies the API paths to it. Open http://localhost:5173.
import { spawn } from 'node:child_process';

const backendPort = process.env.BACKEND_PORT ?? '3001';
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: backendPort,
      SITE_URL: process.env.SITE_URL ?? 'http://localhost:5173',
      LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
    },
  }),
  spawn('npx', ['vite', '--port', '5173', '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, BACKEND_PORT: backendPort },
  }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
