// FAQ (product spec section 2, item 10): four questions in an accordion. Each question is a
// native button in an h3 (aria-expanded, aria-controls) over a labelled answer region.
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from '@mui/material';
import { FAQ } from '../data/faq';
import { LandingSection } from './landing-section';

export function FaqSection() {
  return (
    <LandingSection id="faq" eyebrow="FAQ" title="Frequently asked questions" width="md">
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {FAQ.map((entry) => (
          <Accordion
            key={entry.id}
            disableGutters
            variant="outlined"
            sx={{ borderRadius: 1.5, '&::before': { display: 'none' }, overflow: 'hidden' }}
          >
            <AccordionSummary
              id={`faq-${entry.id}-question`}
              aria-controls={`faq-${entry.id}-answer`}
              expandIcon={<ExpandMoreRounded aria-hidden />}
              sx={{ px: { xs: 2, sm: 3 }, py: 1, '& .MuiAccordionSummary-content': { my: 1.5 } }}
            >
              <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.0625rem' }}>
                {entry.question}
              </Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ px: { xs: 2, sm: 3 }, pb: 3, pt: 0 }}>
              {entry.answer.map((paragraph, index) => (
                <Typography key={index} color="text.secondary" sx={{ mt: index === 0 ? 0 : 1.5 }}>
                  {paragraph}
                </Typography>
              ))}
            </AccordionDetails>
          </Accordion>
        ))}
      </Box>
    </LandingSection>
  );
}
