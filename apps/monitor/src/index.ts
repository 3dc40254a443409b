export { startMonitor, type MonitorDeps, type RunningMonitor } from './start-monitor';
