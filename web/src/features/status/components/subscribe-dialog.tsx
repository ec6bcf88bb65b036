// 'Subscribe to updates' (spec: no action shown). There is no notification service yet, so the
// dialog says so plainly and offers the support address instead of pretending to subscribe.
import { CONTACT_EMAILS } from '@purser/docs-content/browser';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';

export function SubscribeButton() {
  const [open, setOpen] = useState(false);
  const subject = encodeURIComponent('Status updates');
  return (
    <>
      <Button variant="contained" onClick={() => setOpen(true)}>
        Subscribe to updates
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="subscribe-title" aria-describedby="subscribe-text">
        <DialogTitle id="subscribe-title">Status updates</DialogTitle>
        <DialogContent>
          <DialogContentText id="subscribe-text">
            Email and webhook notifications for incidents are not available yet. This page checks the platform live every
            30 seconds; for news about an incident, write to our support team at {CONTACT_EMAILS.support}.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
          <Button variant="contained" href={`mailto:${CONTACT_EMAILS.support}?subject=${subject}`}>
            Email support
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
