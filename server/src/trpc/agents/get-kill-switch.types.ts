import { killSwitchView } from '@purser/core';

export const getKillSwitchOutput = killSwitchView;
