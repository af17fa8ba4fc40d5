import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { chooseBridge } from './bridge/choose-bridge';
import './styles/base.css';
import './styles/shell.css';
import './styles/sale.css';
import './styles/result.css';
import './styles/screens.css';
import './styles/tabs.css';
import './styles/refunds.css';
import './styles/end-of-day.css';
import './styles/settings.css';
import './styles/staff.css';
import './styles/print.css';
import './styles/receipts.css';
import './styles/counter-customer.css';
import './styles/touch-and-narrow.css';

const container = document.getElementById('root');
if (!container) throw new Error('renderer/index.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <App choice={chooseBridge()} />
  </StrictMode>,
);
