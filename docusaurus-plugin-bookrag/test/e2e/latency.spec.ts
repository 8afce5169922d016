/** Numbers: time from Send to the first visible answer text (offline answers, the sample book,
 * 20 questions) and the size of the panel code loaded on first open. Printed, and written to
 * test-results/metrics.json. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {env, expect, test} from './fixtures';

const QUESTIONS = [
  'Which QoS setting makes DDS retransmit lost messages?',
  'What is a ROS 2 node?',
  'How do I write a publisher and a subscriber in rclpy?',
  'When should I use a service instead of a topic?',
  'How do actions report feedback?',
  'What goes into a launch file?',
  'How do nodes react to parameter changes?',
  'What is simulation time used for?',
  'How do I describe a robot with URDF?',
  'How does Gazebo simulate sensors?',
  'What does the ROS Gazebo bridge do?',
  'What is Isaac Sim used for?',
  'How does Isaac ROS accelerate perception?',
  'How is synthetic data used for sim-to-real transfer?',
  'What is a vision-language-action model?',
  'How does a voice command become a robot action?',
  'How are humanoid robots evaluated for safety?',
  'What are the hardware tiers of the handbook?',
  'What is physical AI?',
  'How do I inspect a running system from the command line?',
];

const METRICS = path.resolve(__dirname, '../../test-results/metrics.json');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function record(key: string, value: unknown) {
  const metrics = fs.existsSync(METRICS) ? JSON.parse(fs.readFileSync(METRICS, 'utf8')) : {};
  metrics[key] = value;
  fs.mkdirSync(path.dirname(METRICS), {recursive: true});
  fs.writeFileSync(METRICS, JSON.stringify(metrics, null, 2));
}

test('time from Send to the first visible answer text, offline answers, 20 questions', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  await chat.askAndWait('warm-up: what is physical AI?');
  const times: number[] = [];
  for (const question of QUESTIONS) {
    await page.getByTestId('bookrag-new-chat').click();
    await chat.input.fill(question);
    const ms = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const panel = document.querySelector('[data-testid=bookrag-panel]')!;
          let started = 0;
          const observer = new MutationObserver(() => {
            const text = panel.querySelector('[data-testid=bookrag-answer-text]')?.textContent ?? '';
            if (started && text.trim()) {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - started)); // painted
            }
          });
          observer.observe(panel, {childList: true, subtree: true, characterData: true});
          started = performance.now();
          (panel.querySelector('[data-testid=bookrag-send]') as HTMLButtonElement).click();
        }),
    );
    times.push(ms);
    await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'done');
  }
  const summary = {n: times.length, p50_ms: Math.round(percentile(times, 50)), p95_ms: Math.round(percentile(times, 95)), max_ms: Math.round(Math.max(...times))};
  console.log(`time to first visible answer text (offline): ${JSON.stringify(summary)}`);
  record('first_text_offline', summary);
  expect(summary.p95_ms).toBeLessThan(3000);
});

test('the panel code is loaded only on first open; its size', async ({page}) => {
  const loaded: string[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if ((type === 'script' || type === 'stylesheet') && response.url().startsWith(env.site)) loaded.push(new URL(response.url()).pathname);
  });
  await page.goto(`${env.site}/docs/intro`);
  await page.waitForLoadState('networkidle');
  const firstLoad = [...loaded];
  loaded.length = 0;
  await page.getByTestId('bookrag-open').click();
  await expect(page.getByTestId('bookrag-panel')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const lazy = loaded.filter((file) => !firstLoad.includes(file));
  expect(lazy.length).toBeGreaterThan(0);
  const build = path.join(env.work, 'site/build');
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(build, file)), {level: 9}).length;
  const panel = {files: lazy, gzip_bytes: lazy.reduce((sum, file) => sum + gz(file), 0)};
  const page1 = {files: firstLoad.length, gzip_bytes: firstLoad.reduce((sum, file) => sum + gz(file), 0)};
  console.log(`panel code loaded on first open: ${JSON.stringify(panel)}; whole first load of a page: ${JSON.stringify(page1)}`);
  record('panel_lazy', panel);
  record('page_first_load', page1);
});
