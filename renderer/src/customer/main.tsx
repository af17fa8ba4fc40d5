import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { chooseBridge } from '../bridge/choose-bridge';
import { CustomerApp } from './CustomerApp';
import '../styles/base.css';
import '../styles/customer.css';

const container = document.getElementById('root');
if (!container) throw new Error('renderer/customer.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <CustomerApp choice={chooseBridge('customer')} />
  </StrictMode>,
);
