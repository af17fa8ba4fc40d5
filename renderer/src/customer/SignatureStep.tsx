/**
 * The signature: the customer signs in the box with a finger, a stylus or the mouse (pointer
 * events), then Clear or Done. What is sent is the strokes in pad units, whatever the size of this
 * screen; the host keeps them with the charge.
 */
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import type { CustomerStep } from '../../../shared/ipc/customer-contract';
import {
  inkLength,
  MAX_SIGNATURE_POINTS,
  MAX_SIGNATURE_STROKES,
  MIN_SIGNATURE_INK,
  SIGNATURE_PAD,
} from '../../../shared/signature';
import type { CustomerAnswers } from './answers';
import { ApprovedNote, Total } from './StatusSteps';
import { CustomerProblem } from './CustomerProblem';

/** Points closer than this to the one before, in pad units, add nothing a printer could show. */
const MIN_STEP = 3;

export function SignatureStep({
  step,
  answers,
}: {
  step: Extract<CustomerStep, { step: 'signature' }>;
  answers: CustomerAnswers;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<number[][]>([]);
  const drawing = useRef<number | null>(null);
  const [ink, setInk] = useState(0);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  /** Draws every stroke at the canvas's size on screen, sharp on high-density displays. */
  const redraw = useCallback(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = element.getBoundingClientRect();
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    context.lineWidth = Math.max(2.5, width / 300);
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#1b1a17';
    const scale = width / SIGNATURE_PAD.width;
    for (const stroke of strokes.current) {
      context.beginPath();
      context.moveTo((stroke[0] ?? 0) * scale, (stroke[1] ?? 0) * scale);
      if (stroke.length === 2) context.lineTo((stroke[0] ?? 0) * scale + 0.1, (stroke[1] ?? 0) * scale);
      for (let i = 2; i + 1 < stroke.length; i += 2)
        context.lineTo((stroke[i] ?? 0) * scale, (stroke[i + 1] ?? 0) * scale);
      context.stroke();
    }
  }, []);

  useEffect(() => {
    redraw();
    const element = canvas.current;
    if (!element) return;
    const resized = new ResizeObserver(redraw);
    resized.observe(element);
    return () => resized.disconnect();
  }, [redraw]);

  const padPoint = (event: { clientX: number; clientY: number }): [number, number] => {
    const box = canvas.current?.getBoundingClientRect();
    if (!box) return [0, 0];
    const x = Math.round(((event.clientX - box.left) / box.width) * SIGNATURE_PAD.width);
    const y = Math.round(((event.clientY - box.top) / box.height) * SIGNATURE_PAD.height);
    return [
      Math.min(SIGNATURE_PAD.width - 1, Math.max(0, x)),
      Math.min(SIGNATURE_PAD.height - 1, Math.max(0, y)),
    ];
  };
  const pointsSoFar = () => strokes.current.reduce((sum, stroke) => sum + stroke.length / 2, 0);

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    if (busy || drawing.current !== null || strokes.current.length >= MAX_SIGNATURE_STROKES) return;
    if (pointsSoFar() >= MAX_SIGNATURE_POINTS) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = event.pointerId;
    strokes.current = [...strokes.current, padPoint(event)];
    setProblem(undefined);
    redraw();
    answers.stillHere();
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (drawing.current !== event.pointerId) return;
    const stroke = strokes.current.at(-1);
    if (!stroke) return;
    // Every point the pointer passed, not only the last one per frame: smooth curves on a fast finger.
    const passed = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
    for (const each of passed.length > 0 ? passed : [event.nativeEvent]) {
      if (pointsSoFar() >= MAX_SIGNATURE_POINTS) break;
      const [x, y] = padPoint(each);
      const [lastX = x, lastY = y] = stroke.slice(-2);
      if (Math.hypot(x - lastX, y - lastY) >= MIN_STEP) stroke.push(x, y);
    }
    redraw();
  };
  const up = (event: PointerEvent<HTMLCanvasElement>) => {
    if (drawing.current !== event.pointerId) return;
    drawing.current = null;
    setInk(inkLength(strokes.current));
  };

  const clear = () => {
    strokes.current = [];
    drawing.current = null;
    setInk(0);
    setProblem(undefined);
    redraw();
  };
  const done = async () => {
    setBusy(true);
    const refused = await answers.sign(strokes.current);
    setBusy(false);
    if (refused) setProblem(refused);
  };

  const enough = ink >= MIN_SIGNATURE_INK;
  return (
    <section className="customer-signature" aria-labelledby="customer-title">
      <div className="signature-head">
        <h1 id="customer-title">Please sign below</h1>
        <ApprovedNote />
        <Total totalCents={step.totalCents} />
      </div>
      <div className="signature-box">
        <canvas
          ref={canvas}
          className="signature-canvas"
          data-testid="signature-pad"
          role="img"
          aria-label={enough ? 'Your signature' : 'Signature box: sign here with your finger'}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        />
        <span className="signature-line" aria-hidden="true">
          ×
        </span>
      </div>
      <p className="customer-note signature-agree">I agree to pay the total above.</p>
      <CustomerProblem problem={problem} />
      <div className="customer-actions">
        <button
          type="button"
          className="button button-secondary customer-button"
          disabled={busy}
          onClick={clear}
        >
          Clear
        </button>
        <button
          type="button"
          className="button button-primary customer-button"
          disabled={busy || !enough}
          onClick={() => void done()}
        >
          Done
        </button>
      </div>
    </section>
  );
}
