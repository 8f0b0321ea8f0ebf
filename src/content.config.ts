import { defineCollection } from 'astro:content';
import { packetLoader } from './packets/astro-loader.ts';

/** The public packets: prompt, rubric and starter tree only (see src/packets/public.ts). */
const packets = defineCollection({
  loader: packetLoader({ packetsDir: process.env.PACKET_KIT_PACKETS ?? 'packets' }),
});

export const collections = { packets };
